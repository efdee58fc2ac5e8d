// Types for commit-subjects.mjs, a plain script so git's hook runs it without a build.
export declare const SUBJECT_MAX_CHARACTERS: number;
export declare function subjectOf(message: string): string;
export declare function subjectProblems(subject: string): string[];
export interface CommitSubject {
  hash: string;
  subject: string;
}
export declare function subjectsSince(base: string, options: { cwd: string; git?: string }): Promise<{ commits: CommitSubject[] } | { unavailable: string }>;
