import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { GatewayContext } from '../server/context.js';
import { artifactsRestTarget, InvalidArtifactPath, type ArtifactsLocation } from '../datasources/artifacts.js';
import type { Credential, CredentialPolicy } from '../datasources/credentials.js';
import { abandonBody } from '../datasources/rest-client.js';
import { toQueryString } from '../datasources/query.js';
import { RestError } from '../datasources/rest-error.js';
import { UnsendableRequest } from '../datasources/unsendable.js';
import { codeForUnsendableRequest, graphQLErrorFromRest, type GatewayErrorCode } from '../errors/graphql-errors.js';
import { redact, redactDeep } from '../errors/redact.js';

/**
 * The gateway's artifact download routes: REST's artifact paths under `/artifacts`, so that
 * `GET /artifacts/projects/1/jobs/42/artifacts/docs/index.html` on the gateway streams
 * `GET /projects/1/jobs/42/artifacts/docs/index.html` of REST through, bytes untouched
 * (rest-v4-api.md "Job artifacts"). Archives do not fit GraphQL's JSON, so GraphQL only hands out
 * these paths (CiJobArtifactsDownload).
 */
export const ARTIFACTS_PREFIX = '/artifacts';

/** The gateway path of a job's archive, or of one file in it (the REST target, under the prefix). */
export function artifactsDownloadPath(location: ArtifactsLocation, artifactPath?: string): string {
  const target = artifactsRestTarget(location, artifactPath);
  return ARTIFACTS_PREFIX + target.path + toQueryString(target.query);
}

/** What a download request asks for, read from the raw request target. */
interface DownloadRequest {
  location: ArtifactsLocation;
  artifactPath: string | undefined;
}

class DownloadProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: GatewayErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new DownloadProblem(400, 'BAD_USER_INPUT', 'The download path has a malformed %-escape.');
  }
}

/**
 * Reads `/artifacts/projects/:id/jobs/:job_id/artifacts[/*path]` and
 * `/artifacts/projects/:id/jobs/artifacts/:ref_name/(download|raw/*path)?job=`. Each segment is
 * decoded once (`%2F` in `:id` and `:ref_name` stays inside it); the file path is checked and
 * re-encoded segment by segment by the data source, so `..`, `%2e%2e` and `a%2F..%2Fb` are refused.
 * The raw target is read, not a normalised URL, which would have resolved `..` already.
 */
function parseDownloadRequest(rawTarget: string): DownloadRequest {
  const queryAt = rawTarget.indexOf('?');
  const rawPath = queryAt === -1 ? rawTarget : rawTarget.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rawTarget.slice(queryAt + 1));
  const segments = rawPath
    .slice(ARTIFACTS_PREFIX.length + 1)
    .split('/')
    .map(decodeSegment);
  const [projects, projectSegment, jobs, fourth, fifth, sixth] = segments;
  if (projects !== 'projects' || !projectSegment || jobs !== 'jobs') throw notADownloadPath();
  const project = /^\d+$/.test(projectSegment) ? Number(projectSegment) : projectSegment;

  if (fourth === 'artifacts' && fifth) {
    const jobName = query.get('job');
    if (!jobName) throw new DownloadProblem(400, 'BAD_USER_INPUT', 'Downloads by branch or tag need the job name: add `?job=<name>`.');
    const location: ArtifactsLocation = { project, job: { kind: 'ref', refName: fifth, jobName } };
    if (sixth === 'download' && segments.length === 6) return { location, artifactPath: undefined };
    if (sixth === 'raw' && segments.length > 6) return { location, artifactPath: segments.slice(6).join('/') };
    throw notADownloadPath();
  }
  if (fourth && /^\d{1,15}$/.test(fourth) && fifth === 'artifacts') {
    const location: ArtifactsLocation = { project, job: { kind: 'id', jobId: Number(fourth) } };
    return { location, artifactPath: segments.length > 5 ? segments.slice(5).join('/') : undefined };
  }
  throw notADownloadPath();
}

function notADownloadPath(): DownloadProblem {
  return new DownloadProblem(
    404,
    'NOT_FOUND',
    'Not an artifact download path: use /artifacts/projects/:id/jobs/:job_id/artifacts[/path] or /artifacts/projects/:id/jobs/artifacts/:ref_name/(download|raw/path)?job=<name>.',
  );
}

function describeJob(location: ArtifactsLocation): string {
  const { job, project } = location;
  return job.kind === 'id'
    ? `job ${job.jobId} of project ${project}`
    : `the latest successful "${job.jobName}" job on ${job.refName} of project ${project}`;
}

/**
 * What REST's 400 and 404 mean for a download (rest-v4-api.md "Errors": "400 artifact path
 * invalid", "404 build not found or no artifacts"), as a sentence; undefined for other statuses.
 */
export function explainArtifactError(error: RestError, location: ArtifactsLocation, artifactPath?: string): string | undefined {
  const job = describeJob(location);
  if (error.status === 400) return artifactPath === undefined ? undefined : `REST refused "${artifactPath}" as an artifact path of ${job}.`;
  if (error.status !== 404) return undefined;
  if (/project/i.test(error.reason)) return `Project ${location.project} does not exist, or is not visible to this credential.`;
  const missing = artifactPath === undefined ? '' : `, or its archive has no file "${artifactPath}"`;
  return `No artifacts for ${job}: no such job, no artifacts (or they expired)${missing}, or not visible to this credential.`;
}

/**
 * The credential of a download: the caller's (the usual headers, or the embedder's reader), else
 * the `job_token` query parameter CI scripts use, else the gateway's service credential if any.
 */
function downloadCredential(req: IncomingMessage, query: URLSearchParams, credentials: CredentialPolicy): Credential | null {
  const fromRequest = credentials.ofHttpRequest(req);
  if (fromRequest) return fromRequest;
  const jobToken = query.get('job_token')?.trim();
  // Forwarded as the JOB-TOKEN header, so the token never reaches an upstream access log.
  return jobToken ? { kind: 'job-token', value: jobToken } : credentials.fallback;
}

function sendError(res: ServerResponse, status: number, message: string, extensions: Record<string, unknown>, secrets: ReadonlyArray<string> = []): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ errors: [{ message: redact(message, secrets), extensions: redactDeep(extensions, secrets) }] }));
}

/** A download refused before any REST call, by whose fault it is; a gateway bug is left to the 500 handler. */
const HTTP_STATUS_BY_UNSENT_CODE: ReadonlyMap<GatewayErrorCode, number> = new Map([
  ['UNAUTHENTICATED', 401],
  ['BAD_USER_INPUT', 400],
]);

/** REST's failure as the download's answer: 4xx as REST said, transport failures and 5xx as 502/504. */
function sendRestError(res: ServerResponse, error: RestError, request: DownloadRequest, secrets: ReadonlyArray<string>): void {
  const mapped = graphQLErrorFromRest(error);
  const message = explainArtifactError(error, request.location, request.artifactPath) ?? mapped.message;
  const status = error.status >= 400 && error.status < 500 ? error.status : error.failure === 'timeout' ? 504 : 502;
  sendError(res, status, message, { ...mapped.extensions }, secrets);
}

/** `attachment`, always: an HTML artifact must download, never render on the gateway's origin. */
function contentDisposition(upstream: string | undefined, request: DownloadRequest): string {
  if (upstream && /^\s*attachment\b/i.test(upstream)) return upstream;
  const name = request.artifactPath?.split('/').pop() ?? 'artifacts.zip';
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function isArtifactDownloadRequest(req: IncomingMessage): boolean {
  return (req.url ?? '').startsWith(`${ARTIFACTS_PREFIX}/`);
}

/**
 * Answers one download: the caller's credential goes upstream as it came, REST's body is piped to
 * the client as it arrives (never held whole), and REST's errors come back as JSON with REST's
 * status. GET and HEAD only.
 */
export async function serveArtifactDownload(
  req: IncomingMessage,
  res: ServerResponse,
  contextFor: (credential: Credential | null) => GatewayContext,
  credentials: CredentialPolicy,
): Promise<void> {
  const method = req.method === 'HEAD' ? 'HEAD' : req.method === 'GET' ? 'GET' : undefined;
  if (!method) {
    res.setHeader('allow', 'GET, HEAD');
    sendError(res, 405, 'Artifact downloads are GET or HEAD requests.', { code: 'BAD_USER_INPUT' });
    return;
  }
  const target = req.url ?? '/';
  let request: DownloadRequest;
  try {
    request = parseDownloadRequest(target);
  } catch (error) {
    if (!(error instanceof DownloadProblem)) throw error;
    sendError(res, error.status, error.message, { code: error.code });
    return;
  }
  const queryAt = target.indexOf('?');
  const { api } = contextFor(downloadCredential(req, new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1)), credentials));

  let upstream;
  try {
    upstream = await api.artifacts.download(request.location, request.artifactPath, method);
  } catch (error) {
    if (error instanceof InvalidArtifactPath) {
      sendError(res, 400, error.message, { code: 'BAD_USER_INPUT', argumentName: 'path' });
      return;
    }
    if (error instanceof RestError) {
      sendRestError(res, error, request, credentials.secrets);
      return;
    }
    // A `?job_token=` (or header) that no HTTP header can carry: refused here, GitLab never asked.
    if (error instanceof UnsendableRequest) {
      const code = codeForUnsendableRequest(error);
      const status = HTTP_STATUS_BY_UNSENT_CODE.get(code);
      if (status !== undefined) {
        sendError(res, status, error.message, { code }, credentials.secrets);
        return;
      }
    }
    throw error;
  }

  if (upstream.status >= 300) {
    // Object storage: REST redirects to a signed URL that the client fetches itself (curl --location).
    abandonBody(upstream.body);
    res.writeHead(302, { location: upstream.header('location') ?? '/', 'cache-control': 'no-store' });
    res.end();
    return;
  }
  const headers: Record<string, string> = {
    'content-type': upstream.header('content-type') ?? 'application/octet-stream',
    'content-disposition': contentDisposition(upstream.header('content-disposition'), request),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
  const length = upstream.header('content-length');
  if (length && /^\d+$/.test(length)) headers['content-length'] = length;
  res.writeHead(upstream.status, headers);
  if (method === 'HEAD') {
    abandonBody(upstream.body);
    res.end();
    return;
  }
  // Backpressure both ways: a slow client slows the upstream read; a client that leaves aborts it.
  await pipeline(upstream.body, res).catch(() => {
    res.destroy();
  });
}
