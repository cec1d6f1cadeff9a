/** Letters of the scripts written right to left. */
const RIGHT_TO_LEFT_SCRIPTS = String.raw`\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}`;
const RIGHT_TO_LEFT_LETTER = new RegExp(`[${RIGHT_TO_LEFT_SCRIPTS}]`, 'u');
/** Whether `text` holds a letter of a script written right to left. */
export const hasRightToLeftLetter = (text: string) => RIGHT_TO_LEFT_LETTER.test(text);
/** Letters, marks and spaces of those scripts: a glyph's text made only of these is one right-to-left run. */
const RIGHT_TO_LEFT_RUN = new RegExp(`^(?:[${RIGHT_TO_LEFT_SCRIPTS}]|\\p{M}| )+$`, 'u');
/**
 * Forms Unicode encodes only for compatibility, read as the plain letters they show (NFKC):
 * Hebrew and Arabic presentation forms (a lam-alef ligature is one of them), fullwidth Latin
 * letters and digits, and halfwidth katakana with their punctuation (its voiced marks become
 * the combining ones, composed with the letter before by `addGlyphText`). Fullwidth
 * punctuation stays: it keeps CJK text joined.
 */
const COMPATIBILITY_FORM = String.raw`[\ufb1d-\ufb4f\ufb50-\ufdff\ufe70-\ufefc\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff61-\uff9f]`;
const COMPATIBILITY_FORMS = new RegExp(`${COMPATIBILITY_FORM}+`, 'gu');
const HAS_COMPATIBILITY_FORM = new RegExp(COMPATIBILITY_FORM, 'u');
/** The same forms and the Latin ligatures ("ﬁ"), which pdf.js already reads as their letters. */
const TEXT_COMPATIBILITY_FORMS = new RegExp(`(?:[\ufb00-\ufb06]|${COMPATIBILITY_FORM})+`, 'gu');

/**
 * The text of a document that is not a PDF (DOCX, HTML, Markdown, plain text) with the
 * compatibility forms a PDF's glyphs are read as plain letters (`glyphText`) and Latin
 * ligatures read so too: "ｾｲｷｭｳｼｮ" is "セイキュウショ", "ﬁnance" "finance", whatever the
 * format. A halfwidth voiced mark after its letter is composed with it ("ﾊﾟ" -> "パ").
 */
export function plainLetters(text: string): string {
  return text.replace(TEXT_COMPATIBILITY_FORMS, (forms) => forms.normalize('NFKC'));
}

/**
 * The text of one glyph, as pdf.js should add it to a page's run of glyphs before it reorders
 * the run. A PDF places right-to-left text in visual order and pdf.js reverses each
 * right-to-left run into logical order; a glyph standing for several letters (a lam-alef
 * ligature, a Hebrew letter with its point, "ﷲ") carries them in logical order already, so the
 * reversal would turn them around ("اإل" read for "الإ"). Given reversed here, they come out
 * in reading order. Compatibility forms are read as their letters first, so a ligature encoded
 * as one code point comes out as its letters too. Anything else is returned as it is.
 */
export function glyphText(text: string): string {
  const hasForms = HAS_COMPATIBILITY_FORM.test(text);
  if (!hasForms && !RIGHT_TO_LEFT_LETTER.test(text)) return text;
  const letters = hasForms
    ? text.replace(COMPATIBILITY_FORMS, (forms) => forms.normalize('NFKC'))
    : text;
  const codePoints = [...letters];
  // Digits inside a right-to-left run keep their own left-to-right order.
  if (codePoints.length < 2 || !RIGHT_TO_LEFT_RUN.test(letters) || /\p{N}/u.test(letters))
    return letters;
  return codePoints.reverse().join('');
}

/** The combining voiced and semi-voiced sound marks of kana (a halfwidth ﾞ or ﾟ read). */
const KANA_VOICED_MARK = /^[\u3099\u309a]$/u;

/**
 * Adds one glyph's text (`glyphText`) to the run of glyphs pdf.js is building. A halfwidth
 * katakana voiced mark is a glyph of its own after its letter ("ｶ" "ﾞ"); read as the
 * combining mark, it is composed with the letter the run ends with ("ガ"), as NFKC composes
 * the two when they stand together. A mark that composes with nothing is added as it is.
 */
export function addGlyphText(run: string[], text: string): void {
  const read = glyphText(text);
  const last = run.at(-1);
  if (last !== undefined && KANA_VOICED_MARK.test(read)) {
    const composed = (last + read).normalize('NFC');
    if (composed.length === last.length) {
      run[run.length - 1] = composed;
      return;
    }
  }
  run.push(read);
}

/** Text that says nothing of a glyph's letters: none, U+FFFD, private-use or control codes. */
const UNREAD_GLYPH_TEXT = /^[\p{Co}\p{Cc}\ufffd]*$/u;

/** Whether a font's map gives `text` for a glyph that tells none of its letters. */
export function unreadGlyphText(text: string | undefined): boolean {
  return text === undefined || UNREAD_GLYPH_TEXT.test(text);
}

/** A glyph name of code points written as four hex digits each, "uni" first ("uni00740069"). */
const UNI_SEQUENCE = /^uni((?:[0-9A-F]{4})+)$/;

/**
 * The letters a glyph's name spells by the Adobe Glyph List's rules, for a ligature name pdf.js
 * does not read: its components joined by underscores ("t_i", "f_f_i", "uni0074_uni0069"), a
 * variant after a period ("t_i.liga"), several code points after "uni" ("uni00740069"). A
 * single letter's variant ("A.sc", a small capital TeX draws for "a") is left to pdf.js,
 * which reads the code it is drawn with: its name says the capital, the text the letter. `codeOf`
 * is pdf.js's reading of one component (the glyph list, "uniXXXX", "uXXXX"), -1 for none.
 * A font that maps a ligature glyph to nothing, U+FFFD or a private-use code point but names
 * it so is then read as its letters ("consumption", not "consump�on"). Undefined where any
 * part of the name is not a glyph name pdf.js knows.
 */
export function glyphNameLetters(
  name: string,
  codeOf: (component: string) => number,
): string | undefined {
  const base = name.split('.')[0];
  if (!base.includes('_') && !(base === name && UNI_SEQUENCE.test(base))) return undefined;
  let letters = '';
  for (const component of base.split('_')) {
    const sequence = UNI_SEQUENCE.exec(component);
    const codes = sequence
      ? (sequence[1].match(/.{4}/g) ?? []).map((hex) => parseInt(hex, 16))
      : [codeOf(component)];
    for (const code of codes) {
      if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return undefined;
      letters += String.fromCodePoint(code);
    }
  }
  return UNREAD_GLYPH_TEXT.test(letters) ? undefined : letters;
}
