// The comments of a TypeScript or Svelte source file, found by TypeScript's own scanner, so a `//` inside a string,
// a template or a regular expression is not taken for one.
import ts from 'typescript';

export interface SourceComment {
  /** 1-based line of the comment's first character in the file. */
  line: number;
  text: string;
}

/** Tokens after which a `/` divides; after any other token it starts a regular expression. */
const ENDS_AN_OPERAND = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
  ts.SyntaxKind.UndefinedKeyword,
]);

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** The comments of TypeScript code; `lineOffset` is the line, in its file, before the code's first line. */
export function typeScriptComments(code: string, lineOffset = 0): SourceComment[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, code);
  const comments: SourceComment[] = [];
  // A template's `${` pushes true, any other `{` false, so its `}` resumes the template's text.
  const braces: boolean[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ line: lineOffset + lineAt(code, scanner.getTokenStart()), text: scanner.getTokenText() });
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !ENDS_AN_OPERAND.has(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.TemplateHead) {
      braces.push(true);
    } else if (kind === ts.SyntaxKind.OpenBraceToken) {
      braces.push(false);
    } else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === true) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push(true);
    }
    previous = kind;
  }
  return comments;
}

/** The comments of a Svelte component: those of its <script> parts, its markup's <!-- --> and its styles' /* *\/. */
export function svelteComments(source: string): SourceComment[] {
  const comments: SourceComment[] = [];
  const scripts = /(<script\b[^>]*>)([\s\S]*?)<\/script>/g;
  const blanked = source.replace(scripts, (whole: string, _open: string, code: string, offset: number) => {
    const codeStart = offset + whole.indexOf(code);
    for (const comment of typeScriptComments(code, lineAt(source, codeStart) - 1)) comments.push(comment);
    return whole.replace(/[^\n]/g, ' ');
  });
  for (const match of blanked.matchAll(/<!--[\s\S]*?-->/g)) comments.push({ line: lineAt(blanked, match.index), text: match[0] });
  for (const style of blanked.matchAll(/<style\b[^>]*>[\s\S]*?<\/style>/g)) {
    for (const match of style[0].matchAll(/\/\*[\s\S]*?\*\//g)) {
      comments.push({ line: lineAt(blanked, style.index + match.index), text: match[0] });
    }
  }
  return comments.sort((a, b) => a.line - b.line);
}
