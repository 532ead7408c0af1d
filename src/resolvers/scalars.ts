import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { FileUpload } from '../datasources/file-upload.js';
import { badUserInput } from '../errors/graphql-errors.js';
import type { Resolvers } from '../__generated__/resolvers-types.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function stringScalar(name: string, description: string, pattern: RegExp, example: string): GraphQLScalarType<string, string> {
  const check = (value: unknown): string => {
    if (typeof value !== 'string' || !pattern.test(value) || Number.isNaN(Date.parse(value))) {
      throw badUserInput(`${name} must look like ${example}; got ${JSON.stringify(value)}.`);
    }
    return value;
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    // REST already sends ISO 8601 text; it goes out exactly as received, offset included.
    serialize: (value) => String(value),
    parseValue: check,
    parseLiteral: (node: ValueNode) => check(node.kind === Kind.STRING ? node.value : undefined),
  });
}

export const Time = stringScalar(
  'Time',
  'An ISO 8601 timestamp, as the REST API returns it (for example `2016-01-04T15:31:51.081Z`).',
  ISO_TIME,
  '2016-01-04T15:31:51.081Z',
);

const DateScalar = stringScalar(
  'Date',
  'A calendar date without a time, `YYYY-MM-DD` (for example a due date or an expiry date).',
  ISO_DATE,
  '2025-11-08',
);

/** GitLab's name for a calendar date on input (`dueDate` of `createIssue` and `updateIssue`). */
export const ISO8601Date = stringScalar('ISO8601Date', 'A calendar date, `YYYY-MM-DD`, as GitLab names it on input.', ISO_DATE, '2025-11-08');

/**
 * A file sent with the GraphQL multipart request spec. It can only arrive as a variable of a
 * multipart request; the HTTP handler has already put a FileUpload in its place.
 */
export const Upload = new GraphQLScalarType<FileUpload, never>({
  name: 'Upload',
  description: 'A file sent with the GraphQL multipart request spec (a variable of a multipart/form-data request).',
  serialize: () => {
    throw new Error('Upload is an input type only.');
  },
  parseValue: (value) => {
    if (value instanceof FileUpload) return value;
    throw badUserInput('An Upload must be sent as a file of a multipart request (GraphQL multipart request spec).');
  },
  parseLiteral: () => {
    throw badUserInput('An Upload must be sent as a file of a multipart request, not written in the query.');
  },
});

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Time, Date: DateScalar, Upload, ISO8601Date };
