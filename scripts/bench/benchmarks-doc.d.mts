// Types for benchmarks-doc.mjs, plain JavaScript so scripts/bench-docs.mjs runs it without a build.
import type { RecordedResults } from './recorded-results';

export declare const RESULTS_FILE: string;
export declare const DOC_FILE: string;
export declare function benchmarksMarkdown(results: RecordedResults, earlier: string): string;
export declare function benchmarksMarkdownAt(root: string): Promise<string>;
export declare function writeBenchmarksDoc(root: string): Promise<void>;
