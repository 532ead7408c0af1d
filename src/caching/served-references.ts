// What each credential was served, by a record's ID: where REST finds that record. GitLab's clients
// name some records by global ID alone (an issue to subscribe to, a discussion to resolve) while
// REST finds them only under their parent (`/projects/:id/issues/:iid`,
// `/projects/:id/merge_requests/:iid/discussions/:id`). A client reads a record (and its `id`)
// before it acts on it, so remembering, per credential, where each record it was served lives lets
// the gateway act on it by ID. Per credential (by its keyed digest, never the token), so that an
// entry only ever answers the credential it was served to; bounded, so that no caller grows it
// without limit. In this replica's memory, and with Redis in a store the replicas share
// (shared-state/served-reference-store.ts), so that another replica finds it too.
import type { Credential } from '../datasources/credentials.js';
import type { CredentialDigest } from '../shared-state/credential-digest.js';

/** Where replicas share what each credential was served. */
export interface ServedReferenceStore<Id, Place> {
  remember(digest: string, id: Id, place: Place): void;
  find(digest: string, id: Id): Promise<Place | undefined>;
}

/** One kind of record as a shared store keeps it: its key names, and how its place is written down and read back. */
export interface ServedReferenceKind<Place> {
  /** `<entry>:<credential digest>:<record id>` holds the place. */
  entry: string;
  /** `<index>:<credential digest>` bounds the entries of one credential. */
  index: string;
  encode(place: Place): string;
  /** Null for a value this code did not write (another version, a damaged entry): as if never served. */
  decode(value: string): Place | null;
}

export interface ServedReferenceBounds {
  /** Records remembered per credential, the most recently served kept. */
  perCredential: number;
  /** Credentials remembered, the most recently active kept. */
  credentials: number;
}

/** Reads and refreshes an entry of a Map kept in least-recently-used order. */
function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function store<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > bound) map.delete(map.keys().next().value as K);
}

export class ServedReferences<Id extends string | number, Place> {
  private readonly byCredential = new Map<string, Map<Id, Place>>();
  /** Each credential object's digest: a page of 100 records asks for it 100 times in one request. */
  private readonly digests = new WeakMap<Credential, string>();

  constructor(
    private readonly credentialDigest: CredentialDigest,
    private readonly samePlace: (a: Place, b: Place) => boolean,
    private readonly bounds: ServedReferenceBounds,
    private readonly shared?: ServedReferenceStore<Id, Place>,
  ) {}

  /** Records that `credential` was served the record `id`, which lives at `place`. */
  remember(credential: Credential, id: Id, place: Place): void {
    const digest = this.digestOf(credential);
    let places = touch(this.byCredential, digest);
    if (!places) {
      places = new Map();
      store(this.byCredential, digest, places, this.bounds.credentials);
    }
    const known = touch(places, id);
    if (known !== undefined && this.samePlace(known, place)) return; // told the shared store already
    store(places, id, place, this.bounds.perCredential);
    this.shared?.remember(digest, id, place);
  }

  /** Where a record `credential` was served lives, if remembered here or by another replica. */
  async find(credential: Credential, id: Id): Promise<Place | undefined> {
    const digest = this.digestOf(credential);
    const places = touch(this.byCredential, digest);
    return (places && touch(places, id)) ?? (await this.shared?.find(digest, id));
  }

  private digestOf(credential: Credential): string {
    let digest = this.digests.get(credential);
    if (digest === undefined) {
      digest = this.credentialDigest(credential);
      this.digests.set(credential, digest);
    }
    return digest;
  }
}
