// The commit-msg hook: refuses a commit whose subject breaks the rule in commit-subjects.mjs, saying why.
// Enable it once per clone with `git config core.hooksPath scripts/git-hooks` (see CONTRIBUTING.md).
import { readFileSync } from 'node:fs';
import { subjectOf, subjectProblems } from './commit-subjects.mjs';

const messageFile = process.argv[2];
if (!messageFile) {
  console.error('usage: node scripts/commit-msg.mjs MESSAGE-FILE (git passes it to the commit-msg hook)');
  process.exit(2);
}
const subject = subjectOf(readFileSync(messageFile, 'utf8'));
// An empty message is git's to refuse, with its own words.
const problems = subject === '' ? [] : subjectProblems(subject);
if (problems.length > 0) {
  console.error(
    `commit-msg: "${subject}"\n${problems.map((problem) => `  - ${problem}`).join('\n')}\nYour message is kept in .git/COMMIT_EDITMSG; commit again with a subject that keeps the rule.`,
  );
  process.exit(1);
}
