import { GraphQLError } from 'graphql';
import type { CiJobArtifactsDownloadResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { artifactsDownloadPath } from '../../transport/artifacts-download.js';
import { artifactsRestTarget, encodeArtifactPath } from '../../datasources/artifacts.js';
import { abandonBody } from '../../datasources/rest-client.js';
import { RestError } from '../../datasources/rest-error.js';
import { oneCall } from '../../cost/field-cost.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { explainArtifactFailure, refuseInvalidPath } from './location.js';
import { checkMaxBytes, readTextFile } from './text-file.js';

export const CiJobArtifactsDownload: CiJobArtifactsDownloadResolvers = {
  archivePath: (location) => artifactsDownloadPath(location),
  filePath: (location, { path }) => refuseInvalidPath(() => artifactsDownloadPath(location, path)),
  // One GET of the file, by job (`.../jobs/:job_id/artifacts/*artifact_path`) or by ref
  // (`.../jobs/artifacts/:ref_name/raw/*artifact_path`): routes ending in a `*` wildcard, which a
  // declared route cannot name (rest-route.ts), so the data source builds them (datasources/artifacts.ts).
  textFile: declared(oneCall(), async (location, { path, maxBytes }, { api }) => {
    const limit = checkMaxBytes(maxBytes);
    refuseInvalidPath(() => encodeArtifactPath(path));
    const downloadPath = artifactsDownloadPath(location, path);
    let upstream;
    try {
      upstream = await api.artifacts.download(location, path);
    } catch (error) {
      throw explainArtifactFailure(error, location, path);
    }
    if (upstream.status >= 300) {
      abandonBody(upstream.body);
      throw badUserInput(`REST keeps "${path}" in object storage; download it from ${downloadPath} instead.`, 'path');
    }
    try {
      const content = await readTextFile(upstream.body, upstream.header('content-length'), path, limit, downloadPath);
      return { path, size: Buffer.byteLength(content), content };
    } catch (error) {
      if (error instanceof GraphQLError) throw error;
      // The body broke off mid-way: the upstream's failure, not the gateway's.
      throw new RestError({
        method: 'GET',
        path: artifactsRestTarget(location, path).path,
        status: 0,
        failure: 'connection',
        cause: error,
      });
    }
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiJobArtifactsDownload };
