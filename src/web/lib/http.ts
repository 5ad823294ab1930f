import type { z } from 'zod';
/**
 * The shared read: same-origin credentials, JSON, and an error whose message is
 * 'status: statusText'. `ApiError.serverMessage` carries the server's own wording for the UI.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    statusText: string,
    /** The server's `message`, when it sent one. */
    readonly serverMessage: string | undefined,
    readonly code: string | undefined,
    /** A form's refusal by field (`fields` of the envelope: field name to message), when the server sent one. */
    readonly fields: Readonly<Record<string, string>> = {},
    /** The whole envelope (a bulk run's 409 carries the plan and its difference). */
    readonly body: unknown = undefined,
  ) {
    super(`${status}: ${statusText}`);
  }
}

async function parse<T>(res: Response): Promise<T> {
  if (res.ok) {
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  let serverMessage: string | undefined;
  let code: string | undefined;
  const fields: Record<string, string> = {};
  let envelope: unknown;
  try {
    const body = (envelope = await res.json()) as { message?: unknown; error?: { code?: unknown; message?: unknown }; fields?: unknown };
    if (typeof body.message === 'string') serverMessage = body.message;
    else if (typeof body.error?.message === 'string') serverMessage = body.error.message;
    if (typeof body.error?.code === 'string') code = body.error.code;
    if (body.fields && typeof body.fields === 'object') {
      for (const [k, v] of Object.entries(body.fields)) if (typeof v === 'string') fields[k] = v;
    }
  } catch {
    // not JSON: keep the status line only
  }
  throw new ApiError(res.status, res.statusText, serverMessage, code, fields, envelope);
}

/** GET a JSON resource (the default query function reads the path from the query key). */
export async function apiGet<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    method: 'GET',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
  return parse<T>(res);
}

/** A write with a JSON body. */
export async function apiSend<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return parse<T>(res);
}

/** How far an upload has gone: bytes sent of the total (the total is 0 while the browser cannot tell). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POST a multipart form (every file upload: pictures, shop images, mixes). It goes through
 * XMLHttpRequest because fetch reports no upload progress; the answer and its errors are read like
 * every other call (ApiError with the server's message).
 */
export function apiUpload<T>(path: string, form: FormData, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    if (signal?.aborted) return reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open('POST', path);
    xhr.withCredentials = true;
    if (onProgress) xhr.upload.addEventListener('progress', (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 }));
    xhr.addEventListener('load', () => {
      const headers = new Headers();
      const type = xhr.getResponseHeader('content-type');
      if (type) headers.set('content-type', type);
      // Bodies are not allowed on these statuses in a Response.
      const body = xhr.status === 204 || xhr.status === 205 || xhr.status === 304 ? null : xhr.responseText;
      parse<T>(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers })).then(resolve, reject);
    });
    xhr.addEventListener('error', () => reject(new TypeError('Failed to fetch')));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    xhr.send(form);
  });
}

/** The message to show for a failed call: the server's wording, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return fallback;
}

/**
 * The type of a reply, from its contract schema: fetchers read replies as these types without parsing
 * them again (the server serializes every reply through the schema; ADR 0010). Type-only: no zod in
 * the bundle.
 */
export type ReplyOf<S extends z.ZodType> = z.output<S>;
