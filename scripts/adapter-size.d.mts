/** Types of adapter-size.mjs (see there: how an adapter's lines are counted). */
export declare const LOGIC_LIMIT: number;
export interface LineCounts {
  logic: number;
  data: number;
  installer: number;
}
export interface AdapterSize extends LineCounts {
  adapter: string;
  tests: number;
  files: Record<string, LineCounts>;
}
export declare function codeLines(text: string): number;
export declare function countFile(name: string, text: string): LineCounts;
export declare function adapterSizes(repo?: string): AdapterSize[];
