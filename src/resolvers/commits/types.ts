import type { CommitSignatureResolvers, CommitStatusResolvers, X509CertificateResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';
import { USER_AUTHOR } from '../../cost/shapes.js';
import { embedded } from '../../cost/field-cost.js';
import { recordField } from '../../fields/patterns.js';

// Every other field of these types reads its REST field as it is.

export const CommitStatus: CommitStatusResolvers = {
  author: recordField(embedded(USER_AUTHOR)),
  id: (status) => toGlobalId('CommitStatus', status.id),
  pipelineId: (status) => (status.pipeline_id === undefined ? null : toGlobalId('Ci::Pipeline', status.pipeline_id)),
};

/** Each signature kind is its own type, picked by REST's `signature_type`. */
export const CommitSignature: CommitSignatureResolvers = {
  __resolveType: (signature) => {
    switch (signature.signature_type) {
      case 'PGP':
        return 'GpgSignature';
      case 'X509':
        return 'X509Signature';
      case 'SSH':
        return 'SshSignature';
    }
  },
};

export const X509Certificate: X509CertificateResolvers = {
  // Beyond 2^53 the data source keeps the digits as a string; a small serial arrives as a number.
  serialNumber: (certificate) => (certificate.serial_number === undefined ? null : String(certificate.serial_number)),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CommitSignature, CommitStatus, X509Certificate, CommitComment: { author: recordField(embedded(USER_AUTHOR)) } };
