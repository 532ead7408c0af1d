import type {
  CommitSignatureResolvers,
  CommitStatusResolvers,
  DiscussionResolvers,
  X509CertificateResolvers,
} from '../../__generated__/resolvers-types.js';
import type { DiscussionNoteSchema } from '../../datasources/commits.js';
import type { NoteSchema } from '../../datasources/notes.js';
import { toGlobalId } from '../global-id.js';

// Every other field of these types reads its REST field as it is.

export const CommitStatus: CommitStatusResolvers = {
  id: (status) => toGlobalId('CommitStatus', status.id),
  pipelineId: (status) => (status.pipeline_id === undefined ? null : toGlobalId('Ci::Pipeline', status.pipeline_id)),
};

export const Discussion: DiscussionResolvers = {
  id: (discussion) => toGlobalId('Discussion', discussion.id),
  // Notes on commits have no iid: REST sends `noteable_iid: null`, which the shared Note type
  // (made for issue notes, whose iid is always there) would print as "null"; leave it out instead.
  notes: (discussion) => discussion.notes.map(noteRecord),
};

function noteRecord({ noteable_id: noteableId, noteable_iid: noteableIid, ...rest }: DiscussionNoteSchema): NoteSchema {
  const note: NoteSchema = rest;
  if (noteableId !== null && noteableId !== undefined) note.noteable_id = noteableId;
  if (noteableIid !== null && noteableIid !== undefined) note.noteable_iid = noteableIid;
  return note;
}

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
