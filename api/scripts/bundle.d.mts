/** See bundle.mjs. */
export declare const NOT_BUNDLED: string[];
interface BundleOptions {
  entryPoints: Record<string, string>;
  conditions?: string[];
  workingDir?: string;
}
export declare function bundleApi(options: BundleOptions & { outdir: string }): Promise<void>;
export declare function bundleApiInCache(name: string, options: BundleOptions): Promise<string>;
/** `text` with each character past Latin-1 written as its `\u` escape; throws where one follows a backslash. */
export declare function latin1Source(text: string, path: string): string;
