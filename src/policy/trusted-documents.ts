import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { GraphQLError } from 'graphql';

/**
 * Trusted documents (a safelist, as Apollo Router's persisted-query lists and Hive's persisted
 * documents): the only operations the gateway runs are those of a manifest the operator deploys
 * beside it, a JSON object of document id to document text, as GraphQL Code Generator's client
 * preset writes it with `presetConfig: { persistedDocuments: true }` (persisted-documents.json).
 * An id is the SHA-256 of its text in hex, bare or as `sha256:<hex>` (the GraphQL over HTTP
 * persisted documents appendix, and what the preset writes); every id is checked when the manifest
 * is read, and a manifest holding one that does not hash to its text is refused whole.
 *
 * Callers send the id as `extensions.persistedQuery.sha256Hash` (Apollo's shape, version 1) or as
 * `documentId`; the gateway puts the manifest's text in its place before anything is parsed. Any
 * other operation is refused before parsing (admission.ts calls `resolve` for every transport):
 * an id the list lacks with PERSISTED_QUERY_NOT_IN_LIST, a free-form query whose text the list lacks
 * (or any free-form query with `requireId`) with PERSISTED_QUERY_ID_REQUIRED, Apollo Router's codes.
 *
 * The manifest is read again when its file changes (polled: modification time, size, inode), and
 * swapped whole; one that cannot be read or is refused leaves the previous list in force.
 */

/** Apollo Router's codes for what the list refuses. */
export const NOT_IN_LIST = 'PERSISTED_QUERY_NOT_IN_LIST';
export const ID_REQUIRED = 'PERSISTED_QUERY_ID_REQUIRED';
export type TrustedDocumentRefusal = typeof NOT_IN_LIST | typeof ID_REQUIRED | 'BAD_REQUEST';

const ID_REQUIRED_MESSAGE =
  'This gateway runs trusted documents only: send the id of a document of its list (`documentId`, or `extensions.persistedQuery.sha256Hash`), not query text.';

/** Largest manifest file read, in bytes: far above any frontend's documents, well below what would hurt. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** Longest id looked at: `sha256:` and 64 hex digits. Anything longer is refused unread. */
const MAX_ID_LENGTH = 'sha256:'.length + 64;
/** Longest `extensions` text of a GET request parsed to find an id in it. */
const MAX_EXTENSIONS_LENGTH = 10_000;
const ID_PATTERN = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** One manifest, read and checked: texts by id (lower-case hex), and ids by text for free-form queries. */
export interface Manifest {
  readonly byId: ReadonlyMap<string, string>;
  readonly byText: ReadonlyMap<string, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Reads a manifest's JSON: an object of id to text (the client preset's persisted-documents.json).
 * Refused, naming the id and never a document's text: anything but such an object, an id that is not
 * a SHA-256 in hex, and an id that is not the SHA-256 of its text.
 */
export function parseManifest(json: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    // JSON.parse's own message quotes the text around the fault: the documents stay out of logs.
    throw new ManifestError('the manifest is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ManifestError('the manifest must be a JSON object of document id to document text (persisted-documents.json)');
  }
  const byId = new Map<string, string>();
  const byText = new Map<string, string>();
  for (const [id, text] of Object.entries(parsed)) {
    const hex = ID_PATTERN.exec(id)?.[1]?.toLowerCase();
    if (hex === undefined) throw new ManifestError(`the id "${id.slice(0, MAX_ID_LENGTH)}" is not a SHA-256 in hex (64 hex digits, optionally after "sha256:")`);
    if (typeof text !== 'string') throw new ManifestError(`the document of id ${id} is not a string`);
    if (sha256(text) !== hex) throw new ManifestError(`the document of id ${id} does not hash to its id (SHA-256 of its text)`);
    byId.set(hex, text);
    byText.set(text, hex);
  }
  return { byId, byText };
}

/** Reads and checks the manifest file now (at start: a manifest that cannot be used stops the start). */
export function readManifestFile(path: string): Manifest {
  let json: string;
  try {
    json = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ManifestError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  return parseManifest(checkSize(json));
}

function checkSize(json: string): string {
  if (json.length > MAX_MANIFEST_BYTES) throw new ManifestError(`the manifest is larger than ${MAX_MANIFEST_BYTES} bytes`);
  return json;
}

export interface TrustedDocumentsOptions {
  /** The manifest file. */
  path: string;
  /** Refuse free-form queries even when their text is in the list (Apollo Router's `safelist.require_id`). */
  requireId: boolean;
  /** How often the file is checked for a change, in milliseconds. */
  pollIntervalMs: number;
  /** The longest free-form query text looked up (the query length limit). */
  maxQueryLength: number;
  /** Told of each manifest put in force (its number of documents), of each refused, and of each refusal of an operation. */
  onLoaded?: (documents: number) => void;
  onReloadFailure?: (reason: string) => void;
  onRefusal?: (code: TrustedDocumentRefusal) => void;
}

/** An operation as it arrived: an HTTP body's (or GET's parameters), or a graphql-ws `subscribe` payload. */
interface SentOperation {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

/** What tells a changed file: its modification and change times, size and inode. */
function fileKeyOf(statOf: () => Stats): string {
  try {
    const { mtimeMs, ctimeMs, size, ino } = statOf();
    return `${mtimeMs}:${ctimeMs}:${size}:${ino}`;
  } catch (error) {
    return `missing:${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
}

export class TrustedDocuments {
  private manifest: Manifest;
  private fileKey: string;
  private checking = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: TrustedDocumentsOptions) {
    // The file as it was before it was read: a change made after is seen by the next poll.
    this.fileKey = fileKeyOf(() => statSync(options.path));
    this.manifest = readManifestFile(options.path);
    options.onLoaded?.(this.manifest.byId.size);
    this.timer = setInterval(() => void this.checkForChange(), options.pollIntervalMs).unref();
  }

  /** Documents in the list in force. */
  get size(): number {
    return this.manifest.byId.size;
  }

  /** Stops watching the file. */
  close(): void {
    clearInterval(this.timer);
  }

  /**
   * The operation as it is to be parsed: with the list's text in `query` for an id (and the id
   * taken out), or as it was for a free-form query the list holds. Throws the refusal otherwise.
   * Non-objects are left for the transport to refuse as before.
   */
  resolve(operation: unknown): unknown {
    if (typeof operation !== 'object' || operation === null) return operation;
    const sent = operation as SentOperation;
    const extensions = this.extensionsOf(sent.extensions);
    const persistedQuery = extensions?.['persistedQuery'];
    const id = sent.documentId ?? (typeof persistedQuery === 'object' && persistedQuery !== null ? (persistedQuery as { sha256Hash?: unknown }).sha256Hash : undefined);
    const query = typeof sent.query === 'string' && sent.query !== '' ? sent.query : undefined;
    if (id === undefined || id === null) {
      if (persistedQuery !== undefined) throw this.refuse('BAD_REQUEST', 'extensions.persistedQuery needs a sha256Hash: the id of a document of the list.');
      if (query === undefined) return operation;
      if (this.options.requireId || query.length > this.options.maxQueryLength || !this.manifest.byText.has(query)) {
        throw this.refuse(ID_REQUIRED, ID_REQUIRED_MESSAGE);
      }
      return operation;
    }
    if (typeof persistedQuery === 'object' && persistedQuery !== null && (persistedQuery as { version?: unknown }).version !== 1 && sent.documentId === undefined) {
      throw this.refuse('BAD_REQUEST', 'Unsupported persisted query version: send `version: 1`.');
    }
    const text = this.documentOf(id);
    if (query !== undefined && query !== text) throw this.refuse('BAD_REQUEST', 'The query sent is not the document the list holds for this id: send the id alone.');
    const { documentId: _id, ...rest } = sent;
    const withoutPersistedQuery = extensions && Object.fromEntries(Object.entries(extensions).filter(([name]) => name !== 'persistedQuery'));
    return { ...rest, query: text, ...(withoutPersistedQuery ? { extensions: withoutPersistedQuery } : {}) };
  }

  /**
   * Refuses a text the list does not hold, for what reaches the parser without passing `resolve`
   * (a BFF's own mount of Apollo); its length was bounded before.
   */
  checkText(text: string): void {
    if (!this.manifest.byText.has(text)) throw this.refuse(ID_REQUIRED, ID_REQUIRED_MESSAGE);
  }

  /** The text of a document of the list by its id, bounded before it is looked up. */
  private documentOf(id: unknown): string {
    const hex = typeof id === 'string' && id.length <= MAX_ID_LENGTH ? ID_PATTERN.exec(id)?.[1]?.toLowerCase() : undefined;
    const text = hex === undefined ? undefined : this.manifest.byId.get(hex);
    if (text === undefined) throw this.refuse(NOT_IN_LIST, "No document of the trusted list has this id: build the client again with this gateway's list, or add the document to it.");
    return text;
  }

  /** `extensions` as an object: POST and graphql-ws send one, GET a JSON text, parsed only when short. */
  private extensionsOf(extensions: unknown): Record<string, unknown> | undefined {
    let value = extensions;
    if (typeof value === 'string') {
      if (value.length > MAX_EXTENSIONS_LENGTH) throw this.refuse('BAD_REQUEST', `The extensions parameter is longer than ${MAX_EXTENSIONS_LENGTH} characters.`);
      try {
        value = JSON.parse(value);
      } catch {
        throw this.refuse('BAD_REQUEST', 'The extensions parameter is not valid JSON.');
      }
    }
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  }

  private refuse(code: TrustedDocumentRefusal, message: string): GraphQLError {
    this.options.onRefusal?.(code);
    return new GraphQLError(message, { extensions: { code, http: { status: 400 } } });
  }

  private async fileKeyNow(): Promise<string> {
    let stats: Stats;
    try {
      stats = await stat(this.options.path);
    } catch (error) {
      return `missing:${(error as NodeJS.ErrnoException).code ?? ''}`;
    }
    return fileKeyOf(() => stats);
  }

  /** One poll: when the file changed, reads and checks it and swaps the list, or keeps the one in force and says why. */
  async checkForChange(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const key = await this.fileKeyNow();
      if (key === this.fileKey) return;
      this.fileKey = key;
      try {
        this.manifest = parseManifest(checkSize(await readFile(this.options.path, 'utf8')));
        this.options.onLoaded?.(this.manifest.byId.size);
      } catch (error) {
        const reason = error instanceof ManifestError ? error.message : `cannot read ${this.options.path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;
        this.options.onReloadFailure?.(reason);
      }
    } finally {
      this.checking = false;
    }
  }
}
