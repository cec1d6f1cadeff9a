/**
 * How a text addresses its reader (its register): the share of its sentences written in the
 * first person singular ("I"), the first person plural ("we"), addressed to the reader
 * ("you"), and asked as questions. Whether a text speaks to its reader, for its writer, for
 * a group or for no one in particular shows what it is written for, which its topic does not
 * say; the request's own criteria decide what that means. The persons are read from a table of
 * the personal pronouns and possessives of each language the lexical evidence knows (and of
 * Chinese and Japanese, written without spaces): grammar, the same closed class of words in
 * every document, chosen for no category.
 */
import type { Language } from './language.js';
import { hasSpacelessScript, wordsOf } from './words.js';

export interface RegisterProfile {
  /** Sentences of three words or more that were read. */
  sentences: number;
  /** Shares of those sentences, 0..1. */
  firstSingular: number;
  firstPlural: number;
  second: number;
  questions: number;
}

type Person = 'firstSingular' | 'firstPlural' | 'second';

/** Per language, per person: pronouns and possessives, lower case (a general resource). */
const PRONOUNS: Record<Language, Record<Person, string>> = {
  en: {
    firstSingular: 'i me my mine myself',
    firstPlural: 'we us our ours ourselves',
    second: 'you your yours yourself yourselves',
  },
  de: {
    firstSingular: 'ich mich mir mein meine meinen meinem meiner meines',
    firstPlural: 'wir uns unser unsere unseren unserem unserer unseres',
    second: 'du dich dir dein deine deinen deinem deiner deines euch euer eure euren eurem',
  },
  fr: {
    firstSingular: 'je j moi mon ma mes',
    firstPlural: 'nous notre nos',
    second: 'tu toi ton ta tes vous votre vos',
  },
  nl: {
    firstSingular: 'ik mij mijn',
    firstPlural: 'wij we ons onze',
    second: 'jij je jou jouw jullie u uw',
  },
  es: {
    firstSingular: 'yo mí mi mis conmigo',
    firstPlural: 'nosotros nosotras nuestro nuestra nuestros nuestras',
    second:
      'tú tu tus ti contigo usted ustedes vosotros vosotras vuestro vuestra vuestros vuestras',
  },
  it: {
    firstSingular: 'io mio mia miei mie',
    firstPlural: 'noi nostro nostra nostri nostre',
    second: 'tu tuo tua tuoi tue voi vostro vostra vostri vostre',
  },
  pt: {
    firstSingular: 'eu mim meu minha meus minhas comigo',
    firstPlural: 'nós nosso nossa nossos nossas conosco',
    second: 'tu ti teu tua teus tuas você vocês vós vosso vossa vossos vossas',
  },
  pl: {
    firstSingular: 'ja mnie mną mój moja moje mojego mojej moim',
    firstPlural: 'my nas nam nami nasz nasza nasze naszego naszej naszym',
    second:
      'ty ciebie cię tobie tobą twój twoja twoje twojego twojej wy was wam wami wasz wasza wasze',
  },
  sv: {
    firstSingular: 'jag mig mej min mitt mina',
    firstPlural: 'vi oss vår vårt våra',
    second: 'du dig dej din ditt dina ni er ert era',
  },
  da: {
    firstSingular: 'jeg mig min mit mine',
    firstPlural: 'vi os vores',
    second: 'du dig din dit dine jer jeres',
  },
  no: {
    firstSingular: 'jeg meg min mitt mine',
    firstPlural: 'vi oss vår vårt våre',
    second: 'du deg din ditt dine dere deres',
  },
  fi: {
    firstSingular: 'minä minun minua minulle minut',
    firstPlural: 'me meidän meitä meille',
    second: 'sinä sinun sinua sinulle sinut te teidän teitä teille',
  },
  ru: {
    firstSingular: 'я меня мне мной мой моя моё мое мои',
    firstPlural: 'мы нас нам нами наш наша наше наши',
    second: 'ты тебя тебе тобой твой твоя твоё твое твои вы вас вам вами ваш ваша ваше ваши',
  },
  ro: {
    firstSingular: 'eu mine meu mea mei mele',
    firstPlural: 'noi nostru noastră noștri noastre',
    second: 'tu tine tău tale voi vostru voastră voștri voastre dumneavoastră',
  },
  hu: {
    firstSingular: 'én engem nekem enyém',
    firstPlural: 'mi minket nekünk miénk',
    second: 'te téged neked tiéd ti titeket nektek ön önök önt önnek',
  },
  tr: {
    firstSingular: 'ben beni bana benim',
    firstPlural: 'biz bizi bize bizim',
    second: 'sen seni sana senin siz sizi size sizin',
  },
  cs: {
    firstSingular: 'já mě mne mnou můj moje mého mému',
    firstPlural: 'my nás nám námi náš naše našeho',
    second: 'ty tebe tě tobě tebou tvůj tvoje tvého vy vás vám vámi váš vaše vašeho',
  },
  ca: {
    firstSingular: 'jo meu meva meus meves',
    firstPlural: 'nosaltres nostre nostra nostres',
    second: 'tu teu teva teus teves vosaltres vostre vostra vostres vostè vostès',
  },
};

/**
 * German's polite "you" is its third person plural written with a capital: "Sie", "Ihnen",
 * "Ihr" count as the reader's only inside a sentence, where the capital is not the sentence's.
 */
const CAPITALIZED_SECOND: Partial<Record<Language, ReadonlySet<string>>> = {
  de: new Set(['Sie', 'Ihnen', 'Ihr', 'Ihre', 'Ihren', 'Ihrem', 'Ihrer', 'Ihres']),
};

/**
 * Chinese and Japanese pronouns, found within a run of text (no spaces around them); the
 * plural before the singular it holds. Japanese "ください" is the polite request form of its
 * verbs, how its instructions address the reader.
 */
const SPACELESS_PRONOUNS: [Person, RegExp][] = [
  ['firstPlural', /我们|我們|私たち|我々|僕ら|われわれ/u],
  ['firstSingular', /我(?!们|們|々)|私(?!たち)|僕(?!ら)|わたし/u],
  ['second', /你|您|あなた|貴方|ください|下さい/u],
];

const tables = new Map<Language, Map<string, Person>>();

function tableOf(language: Language): Map<string, Person> {
  let table = tables.get(language);
  if (!table) {
    table = new Map();
    for (const [person, words] of Object.entries(PRONOUNS[language]) as [Person, string][]) {
      for (const word of words.split(' ')) table.set(word, person);
    }
    tables.set(language, table);
  }
  return table;
}

const SENTENCE_END = /(?<=[.!?。！？])\s+|(?<=[。！？])|\n+/u;
const QUESTION = /[?？]\s*$|^\s*¿/u;
/** Letters of a word, apart from its punctuation ("you," "l'utilisateur"). */
const WORD_PARTS = /[\p{L}\p{M}]+/gu;
/** Sentences of fewer words are headings, labels and list items, not prose. */
const MIN_SENTENCE_WORDS = 3;
/** Characters read: enough for stable shares, cheap on long documents. */
const MAX_CHARS = 60_000;

/** The persons a sentence is written in. */
function personsOf(sentence: string, language: Language): Set<Person> {
  const found = new Set<Person>();
  if (hasSpacelessScript(sentence)) {
    for (const [person, pattern] of SPACELESS_PRONOUNS)
      if (pattern.test(sentence)) found.add(person);
  }
  const table = tableOf(language);
  const capitalized = CAPITALIZED_SECOND[language];
  const words = sentence.match(WORD_PARTS) ?? [];
  words.forEach((word, i) => {
    const person = table.get(word.toLowerCase());
    if (person) found.add(person);
    else if (capitalized && i > 0 && capitalized.has(word)) found.add('second');
  });
  return found;
}

/** How the text of `pages` addresses its reader, its words read as `language`. */
export function registerProfile(pages: readonly string[], language: Language): RegisterProfile {
  const counts = { sentences: 0, firstSingular: 0, firstPlural: 0, second: 0, questions: 0 };
  const text = pages.join('\n').slice(0, MAX_CHARS);
  for (const raw of text.split(SENTENCE_END)) {
    const sentence = raw.trim();
    if (wordsOf(sentence).length < MIN_SENTENCE_WORDS) continue;
    counts.sentences++;
    for (const person of personsOf(sentence, language)) counts[person]++;
    if (QUESTION.test(sentence)) counts.questions++;
  }
  const share = (value: number) => (counts.sentences === 0 ? 0 : value / counts.sentences);
  return {
    sentences: counts.sentences,
    firstSingular: share(counts.firstSingular),
    firstPlural: share(counts.firstPlural),
    second: share(counts.second),
    questions: share(counts.questions),
  };
}

/**
 * The sentence said of a text that addresses its reader, in plain words of what such a text
 * does: it tells its reader what to do. Said when at least
 * SECOND_PERSON_SHARE of its sentences are in the second person: the 70th percentile of that
 * share over the development documents of both evaluation sets, the level chosen on every
 * fold but one of a cross-validation over documents (record 0544). The other traits of the
 * profile (first person, questions, none of them) were measured as sentences and not taken.
 */
export const ADDRESSED_SENTENCE = 'Written as instructions addressed to the reader.';
export const SECOND_PERSON_SHARE = 0.037;
/** A text of fewer sentences says too little of how it is written. */
const MIN_SENTENCES = 5;

/** Sentences describing how a text addresses its reader (see ADDRESSED_SENTENCE). */
export function describeRegister(profile: RegisterProfile): string[] {
  if (profile.sentences < MIN_SENTENCES) return [];
  return profile.second >= SECOND_PERSON_SHARE ? [ADDRESSED_SENTENCE] : [];
}
