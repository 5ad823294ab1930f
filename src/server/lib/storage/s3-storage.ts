import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SECOND_MS } from '../../../contracts/time';
import {
  attachmentDisposition,
  byteLimit,
  checkKey,
  checkPut,
  MediaNotFoundError,
  type ByteRange,
  type MediaStorage,
  type PresignOptions,
  type PutOptions,
  type StoredObject,
} from './media-storage';

export interface S3Settings {
  /** An S3-compatible endpoint (MinIO, R2, s3rver...); unset means AWS itself. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's default credential chain (instance role, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * Parts of a multipart upload: one part is the most a put holds in memory. S3 wants at least 5 MiB
 * per part but the last; 8 MiB × 10,000 parts is far above MIX_MAX_MB's range.
 */
const PART_BYTES = 8 * 1024 * 1024;
const REACHABLE_TIMEOUT_MS = 3 * SECOND_MS;

function isMissing(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || status === 404;
}

/** Objects in one bucket of an S3-compatible store. Clients fetch mixes straight from it by presigned URL. */
export class S3MediaStorage implements MediaStorage {
  readonly driver = 's3' as const;
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.location = settings.endpoint ? `${settings.bucket} at ${settings.endpoint}` : settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      // Self-hosted stores rarely have a wildcard DNS name per bucket.
      forcePathStyle: Boolean(settings.endpoint),
      credentials:
        settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: most S3-compatible stores do not know the newer headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
    });
  }

  async put(key: string, body: NodeJS.ReadableStream, opts: PutOptions): Promise<StoredObject> {
    const contentType = checkPut(key, opts);
    const target = { Bucket: this.bucket, Key: key };
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;

    const flushPart = async () => {
      if (!uploadId) {
        const created = await this.client.send(new CreateMultipartUploadCommand({ ...target, ContentType: contentType }));
        uploadId = created.UploadId;
        if (!uploadId) throw new Error('S3 gave no upload id');
      }
      const PartNumber = parts.length + 1;
      const chunk = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const sent = await this.client.send(new UploadPartCommand({ ...target, UploadId: uploadId, PartNumber, Body: chunk }));
      parts.push({ PartNumber, ETag: sent.ETag });
    };

    try {
      await pipeline(body, byteLimit(opts.maxBytes), async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= PART_BYTES) await flushPart();
        }
      });
      if (!uploadId) {
        // Small enough for one request.
        const whole = Buffer.concat(pending, pendingBytes);
        await this.client.send(new PutObjectCommand({ ...target, Body: whole, ContentType: contentType, ContentLength: whole.length }));
      } else {
        if (pendingBytes > 0) await flushPart();
        await this.client.send(new CompleteMultipartUploadCommand({ ...target, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      }
    } catch (err) {
      if (uploadId) await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId })).catch(() => undefined);
      throw err;
    }
    const stored = await this.stat(key);
    if (!stored) throw new MediaNotFoundError();
    return stored;
  }

  async open(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    checkKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!res.Body) throw new MediaNotFoundError();
      // In Node the SDK's body is the HTTP response stream itself.
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new MediaNotFoundError();
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const contentType = checkKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0, contentType, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async usage(prefix = ''): Promise<{ bytes: number; objects: number }> {
    let bytes = 0;
    let objects = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        bytes += o.Size ?? 0;
        objects++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { bytes, objects };
  }

  async reachable(): Promise<{ ok: boolean; error: string | null }> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(REACHABLE_TIMEOUT_MS) });
      return { ok: true, error: null };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const name = err instanceof Error ? err.name : 'Error';
      return { ok: false, error: status ? `${name} (HTTP ${status})` : err instanceof Error ? err.message : String(err) };
    }
  }

  async presignedGetUrl(key: string, opts: PresignOptions): Promise<string | null> {
    const contentType = checkKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: contentType,
      ResponseContentDisposition: opts.downloadName ? attachmentDisposition(opts.downloadName) : undefined,
    });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInS });
  }
}
