/**
 * Whether text written in Han characters alone (no kana) is Japanese or Chinese, read from
 * the character sets each language's standard encoding holds, as the runtime's own encoding
 * tables (WHATWG, through TextDecoder) give them: JIS X 0208 for Japanese (Shift_JIS),
 * GB 2312 for simplified Chinese, Big5 for traditional Chinese.
 *
 * Chinese is written in one system: a simplified text's characters are in GB 2312, a
 * traditional text's in Big5, and many of either are in no Japanese set ("发", "稅").
 * Japanese mixes the two: traditional forms ("請", "書") beside simplified ones no
 * traditional text uses ("会", "号", "円"). A text needing characters outside both Chinese
 * sets, more than characters outside the Japanese one, is Japanese.
 */

const HAN = /\p{Script=Han}/u;

interface HanSets {
  japanese: Set<string>;
  simplified: Set<string>;
  traditional: Set<string>;
}

let sets: HanSets | undefined;

/** The Han characters a double-byte encoding maps the given lead and trail byte ranges to. */
function decoded(
  encoding: string,
  leads: [number, number][],
  trails: [number, number][],
): Set<string> {
  const bytes: number[] = [];
  for (const [first, last] of leads)
    for (let lead = first; lead <= last; lead++)
      for (const [from, to] of trails)
        for (let trail = from; trail <= to; trail++) bytes.push(lead, trail);
  const found = new Set<string>();
  for (const char of new TextDecoder(encoding).decode(new Uint8Array(bytes)))
    if (HAN.test(char)) found.add(char);
  return found;
}

function hanSets(): HanSets {
  sets ??= {
    // JIS X 0208 kanji, levels 1 and 2.
    japanese: decoded(
      'shift_jis',
      [
        [0x88, 0x9f],
        [0xe0, 0xea],
      ],
      [
        [0x40, 0x7e],
        [0x80, 0xfc],
      ],
    ),
    // GB 2312 hanzi, levels 1 and 2 (GBK's rows of them).
    simplified: decoded('gbk', [[0xb0, 0xf7]], [[0xa1, 0xfe]]),
    // Big5 hanzi, frequent and less frequent.
    traditional: decoded(
      'big5',
      [
        [0xa4, 0xc6],
        [0xc9, 0xf9],
      ],
      [
        [0x40, 0x7e],
        [0xa1, 0xfe],
      ],
    ),
  };
  return sets;
}

/** 'ja' when the text's Han characters read as Japanese (see above), else 'zh'. */
export function hanLanguage(text: string): 'ja' | 'zh' {
  const { japanese, simplified, traditional } = hanSets();
  let notSimplified = 0;
  let notTraditional = 0;
  let notJapanese = 0;
  for (const char of text) {
    if (!HAN.test(char)) continue;
    if (!japanese.has(char)) notJapanese++;
    else {
      if (!simplified.has(char)) notSimplified++;
      if (!traditional.has(char)) notTraditional++;
    }
  }
  return Math.min(notSimplified, notTraditional) > notJapanese ? 'ja' : 'zh';
}
