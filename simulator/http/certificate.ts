// A self-signed certificate for the TLS mode, made at start with node:crypto alone.
//
// node:crypto makes keys and signatures but no X.509 certificate. The alternatives were a package
// (`selfsigned` pulls in @peculiar/x509, pkijs and a dozen ASN.1 packages, which would have to be
// runtime dependencies, as `npm run simulator -- --tls` ships in dist) or spawning `openssl` (a
// system dependency). A certificate is a few nested DER values, so this encodes them directly:
// X.509 v3 (RFC 5280), an ECDSA P-256 key, signed by itself, valid for 127.0.0.1, ::1 and localhost.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface SelfSignedCertificate {
  /** PEM; a client trusts the simulator by taking it as its CA (it is its own issuer). */
  cert: string;
  /** PKCS#8 PEM. */
  key: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// The object identifiers used, in DER (content bytes only).
const OID = {
  ecPublicKey: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01],
  ecdsaWithSha256: [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02],
  commonName: [0x55, 0x04, 0x03],
  basicConstraints: [0x55, 0x1d, 0x13],
  subjectAltName: [0x55, 0x1d, 0x11],
} as const;

/** One DER value: tag, definite length (short or long form), content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length = body.length;
  const lengthBytes = length < 0x80 ? [length] : length < 0x100 ? [0x81, length] : [0x82, length >> 8, length & 0xff];
  return Buffer.concat([Buffer.from([tag, ...lengthBytes]), body]);
}

const sequence = (...items: Buffer[]) => der(0x30, ...items);
const oid = (bytes: readonly number[]) => der(0x06, Buffer.from(bytes));
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));
const name = (commonName: string) => sequence(der(0x31, sequence(oid(OID.commonName), der(0x0c, Buffer.from(commonName)))));
const extension = (id: readonly number[], critical: boolean, value: Buffer) =>
  sequence(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));

export function selfSignedCertificate(commonName = 'gitlab-v4-simulator'): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signatureAlgorithm = sequence(oid(OID.ecdsaWithSha256));
  // A positive serial of 16 random bytes (RFC 5280 §4.1.2.2): the high bit clear, the first byte never 0.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  const now = Date.now();
  const subjectAltNames = sequence(
    der(0x82, Buffer.from('localhost')), // dNSName
    der(0x87, Buffer.from([127, 0, 0, 1])), // iPAddress
    der(0x87, Buffer.alloc(15), Buffer.from([1])), // iPAddress ::1
  );
  const tbsCertificate = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // [0] version v3
    der(0x02, serial),
    signatureAlgorithm,
    name(commonName),
    // An hour back for clocks a little behind; a year ahead, as `npm start` may run the simulator for days.
    sequence(utcTime(new Date(now - 60 * 60 * 1000)), utcTime(new Date(now + 365 * DAY_MS))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    der(
      0xa3, // [3] extensions
      sequence(
        // Its own CA: a client that trusts this certificate accepts it as the chain's anchor.
        extension(OID.basicConstraints, true, sequence(der(0x01, Buffer.from([0xff])))),
        extension(OID.subjectAltName, false, subjectAltNames),
      ),
    ),
  );
  const signature = sign('sha256', tbsCertificate, { key: privateKey, dsaEncoding: 'der' });
  const certificate = sequence(tbsCertificate, signatureAlgorithm, der(0x03, Buffer.from([0]), signature));
  const base64 = certificate.toString('base64').replace(/.{1,64}/g, '$&\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}
