/** See bundle.mjs. */
export declare const NOT_BUNDLED: string[];
interface BundleOptions {
  entryPoints: Record<string, string>;
  conditions?: string[];
  workingDir?: string;
}
export declare function bundleApi(options: BundleOptions & { outdir: string }): Promise<void>;
export declare function bundleApiInCache(name: string, options: BundleOptions): Promise<string>;
