/** See bundle.mjs. */
export declare const NOT_BUNDLED: string[];
export declare function bundleApi(options: {
  apiRoot: string;
  entryPoints: Record<string, string>;
  outdir: string;
  conditions?: string[];
}): Promise<void>;
