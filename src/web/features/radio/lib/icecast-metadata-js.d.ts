// The part of icecast-metadata-js this app uses; the package ships no types.
declare module 'icecast-metadata-js' {
  export interface IcecastMetadataReaderOptions {
    icyMetaInt?: number;
    metadataTypes?: ('icy' | 'ogg')[];
    onStream?: (value: { stream: Uint8Array<ArrayBuffer> }) => unknown;
    onMetadata?: (value: { metadata: Record<string, string | undefined> }) => unknown;
  }
  export class IcecastMetadataReader {
    constructor(options: IcecastMetadataReaderOptions);
    asyncReadAll(chunk: Uint8Array<ArrayBuffer>): Promise<void>;
  }
}
