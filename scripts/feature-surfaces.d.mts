/** Types of feature-surfaces.mjs (see there: core's per-folder public surfaces). */
export declare function isExemptImporter(path: string): boolean;
export declare function surfaceOf(importer: string, target: string): string | undefined;
export declare function listedIn(indexPath: string, text: string): Map<string, Set<string> | "*">;
export declare function writeSurfaces(options?: { check?: boolean; core?: string }): string[];
