export declare const externals: string[];
export declare const cjsShimDefine: Record<string, string>;
export declare const cjsShimBanner: { js: string };
export declare const productionDefine: Record<string, string>;
export declare const esmBundleOptions: import('esbuild').BuildOptions;
export declare const launcherOptions: import('esbuild').BuildOptions;
