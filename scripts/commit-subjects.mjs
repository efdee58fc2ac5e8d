// The rule for commit subjects, shared by the commit-msg hook (scripts/commit-msg.mjs) and the test over the
// history (test/tidy/commit-subjects.test.ts), so both judge a subject the same way.
import { execFile } from 'node:child_process';

export const SUBJECT_MAX_CHARACTERS = 72;

// Verbs whose imperative ends like a past tense, a gerund or a third person, so the endings below spare them.
const IMPERATIVES_ENDING_LIKE_OTHERS = new Set([
  ...['bleed', 'breed', 'embed', 'exceed', 'feed', 'heed', 'need', 'proceed', 'seed', 'shed', 'shred', 'speed', 'succeed', 'weed'],
  ...['bring', 'cling', 'fling', 'ping', 'ring', 'sing', 'spring', 'sting', 'string', 'swing', 'wring'],
]);

/** The subject as git shows it (%s): the message's first paragraph, its lines joined by spaces, comments left out. */
export function subjectOf(message) {
  // `git commit -v` puts the diff below a scissors line; git drops it, and so does this.
  const all = message.split(/\r?\n/);
  const scissors = all.findIndex((line) => /^# -+ >8 -+$/.test(line));
  const lines = all.slice(0, scissors < 0 ? undefined : scissors).filter((line) => !line.startsWith('#'));
  const start = lines.findIndex((line) => line.trim() !== '');
  if (start < 0) return '';
  const end = lines.findIndex((line, index) => index > start && line.trim() === '');
  return lines
    .slice(start, end < 0 ? undefined : end)
    .map((line) => line.trim())
    .join(' ');
}

/**
 * What is wrong with a subject, one sentence each; none when it keeps the rule: at most 72 characters, no
 * trailing period, and a first word that is not plainly a past tense (-ed), gerund (-ing) or third person (-s).
 * After a label ("README: ", "Tests: ") the words name a topic and are not judged as a verb.
 */
export function subjectProblems(subject) {
  const problems = [];
  const length = [...subject].length;
  if (length > SUBJECT_MAX_CHARACTERS)
    problems.push(`the subject has ${length} characters; keep it to ${SUBJECT_MAX_CHARACTERS} and put the details in the body`);
  if (subject.endsWith('.')) problems.push('the subject ends with a period; leave it off');
  if (/^[\w./-]+: /.test(subject)) return problems;
  const first = /^[A-Za-z]+/.exec(subject)?.[0].toLowerCase();
  if (first && !IMPERATIVES_ENDING_LIKE_OTHERS.has(first) && (/(ed|ing)$/.test(first) || /[^siua]s$/.test(first))) {
    problems.push(`the subject starts with "${/^[A-Za-z]+/.exec(subject)?.[0]}"; say what the commit does in the imperative ("Add", "Fix", "Keep")`);
  }
  return problems;
}

/**
 * The subjects of the commits after `base` up to HEAD, oldest first, or why they cannot be read (git missing, a
 * shallow clone, the base not in the history): a plain sentence saying what to do.
 */
export async function subjectsSince(base, { cwd, git = 'git' }) {
  const run = (args) =>
    new Promise((resolve) => {
      const child = execFile(git, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => resolve({ error, stdout, stderr }));
      child.on('error', () => {});
    });
  const shallow = await run(['rev-parse', '--is-shallow-repository']);
  if (shallow.error?.code === 'ENOENT') return { unavailable: `git (${git}) is not installed or not on PATH: install git to check the commit subjects.` };
  if (shallow.error) return { unavailable: `${cwd} is not a git checkout (${shallow.stderr.trim()}): check the subjects in a clone of the repository.` };
  if (shallow.stdout.trim() === 'true')
    return { unavailable: `the clone at ${cwd} is shallow: run \`git fetch --unshallow\` so the commits after ${base} can be read.` };
  const known = await run(['cat-file', '-e', `${base}^{commit}`]);
  if (known.error) return { unavailable: `commit ${base} is not in this clone's history: fetch the full history of the main branch.` };
  const log = await run(['log', '--reverse', '--format=%H%x00%B%x00', `${base}..HEAD`]);
  if (log.error) return { unavailable: `git log failed: ${log.stderr.trim()}` };
  const fields = log.stdout.split('\0');
  const commits = [];
  for (let index = 0; index + 1 < fields.length; index += 2) commits.push({ hash: fields[index].trim(), subject: subjectOf(fields[index + 1]) });
  return { commits };
}
