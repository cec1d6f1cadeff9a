/**
 * reStructuredText's markup read as its rendering shows it, for a text file written in it (a
 * `.rst` manual is read as plain text): explicit markup lines that are no text of the page
 * (hyperlink targets `.. _label:`, substitution definitions `.. |name| image:: path`,
 * directives `.. image:: path` with their `:option: value` lines, comments) are dropped, a
 * directive's content and a title it takes (`.. note:: Read this`, `.. figure::`'s caption)
 * stay; inline roles read as their text (":ref:`Install <install>`" is "Install") and
 * hyperlink references as theirs ("`HackRF <https://...>`_" is "HackRF"), literals without
 * their backquotes.
 *
 * Only a text whose lines show such markup is read so: plain text never starts a line with
 * ".. " followed by one of these forms, so it reads as written.
 */

/** `.. _label:`, `.. __:` and `.. _label: https://...`: a hyperlink target. */
const TARGET = /^ *\.\. _[^:\n]*:(?:[ \t].*)?$/;
/** `.. |name| directive:: ...`: a substitution definition. */
const SUBSTITUTION = /^ *\.\. \|[^|\n]+\|[ \t]+[\w-]+::(?:[ \t].*)?$/;
/** `.. name:: argument`: a directive, its argument captured. */
const DIRECTIVE = /^ *\.\. ([\w-]+(?::[\w-]+)?)::(?:[ \t]+(.*))?$/;
/** `.. anything else`, or `..` alone: a comment. */
const COMMENT = /^ *\.\.(?:[ \t].*)?$/;
/** A directive's option line, indented under it. */
const OPTION = /^[ \t]+:[\w -]+:(?:[ \t].*)?$/;
/** Inline markup: a role with a target, a role, a hyperlink reference with its target. */
const ROLE_WITH_TARGET = /:[\w-]+(?::[\w-]+)?:`([^`<\n]{1,500}?)\s*<[^`>\n]{1,500}>`/g;
const ROLE = /:[\w-]+(?::[\w-]+)?:`([^`\n]{1,500})`/g;
const REFERENCE_WITH_TARGET = /`([^`<\n]{1,500}?)\s*<[^`>\n]{1,500}>`__?/g;
const REFERENCE = /`([^`\n]{1,500})`__?/g;
/** ``literal``: shown as its text. */
const LITERAL = /``([^`\n]{1,500})``/g;

/** Whether the text uses reStructuredText's explicit markup: a target or a directive. */
function isRestructuredText(lines: readonly string[]): boolean {
  return lines.some((line) => TARGET.test(line) || DIRECTIVE.test(line));
}

/** An argument a reader sees (a title, words), not a path, address or single setting. */
function shownArgument(argument: string | undefined): string | undefined {
  const text = argument?.trim() ?? '';
  if (!/\s/.test(text) || /^\S+\.\w{1,5}$/.test(text) || /:\/\//.test(text)) return undefined;
  return text;
}

/** One line's inline markup as shown. */
function inlineRestructured(line: string): string {
  return line
    .replace(LITERAL, '$1')
    .replace(ROLE_WITH_TARGET, '$1')
    .replace(ROLE, '$1')
    .replace(REFERENCE_WITH_TARGET, '$1')
    .replace(REFERENCE, '$1');
}

/** A page of reStructuredText as its rendering shows it (see the top of the file). */
export function restructuredText(text: string): string {
  const lines = text.split('\n');
  if (!isRestructuredText(lines)) return text;
  const out: string[] = [];
  /** An explicit markup block's indented lines: dropped (a comment), or options then content. */
  let block: 'comment' | 'directive' | undefined;
  for (const line of lines) {
    const indented = /^[ \t]+\S/.test(line);
    if (block && indented) {
      if (block === 'comment' || OPTION.test(line)) continue;
      out.push(inlineRestructured(line.trim()));
      continue;
    }
    if (line.trim() !== '') block = undefined;
    if (TARGET.test(line) || SUBSTITUTION.test(line)) {
      block = 'comment';
      continue;
    }
    const directive = DIRECTIVE.exec(line);
    if (directive) {
      block = 'directive';
      const argument = shownArgument(directive[2]);
      if (argument !== undefined) out.push(inlineRestructured(argument));
      continue;
    }
    if (COMMENT.test(line)) {
      block = 'comment';
      continue;
    }
    out.push(inlineRestructured(line));
  }
  return out.join('\n');
}
