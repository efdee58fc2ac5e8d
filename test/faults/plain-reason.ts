// What a reason shown to the user must look like: one or two plain sentences, never a stack trace, an exception's
// class name, the catch-all "Unexpected problem" or a JavaScript value that leaked into the text. (A server's own
// message may end without a full stop, so the punctuation is not held against it.)

const LEAKS: readonly [RegExp, string][] = [
  [/\n/, 'spans several lines'],
  [/\bat .+:\d+:\d+\)?/, 'holds a stack frame'],
  [/\b[A-Z][A-Za-z]*Error\b|\bError:/, "names an exception's class"],
  [/^Unexpected problem/, 'is the catch-all for internal errors'],
  [/\bundefined\b|\bnull\b|\bNaN\b|\[object /, 'shows a JavaScript value'],
];

/** The ways `reason` is not a plain sentence; empty when it is one. */
export function plainReasonProblems(reason: string | null | undefined): string[] {
  if (reason === null || reason === undefined || reason.trim() === '') return ['is empty'];
  const problems = LEAKS.filter(([pattern]) => pattern.test(reason)).map(([, problem]) => problem);
  if (reason.length > 400) problems.push(`is ${reason.length} characters long`);
  return problems.map((problem) => `"${reason}" ${problem}`);
}
