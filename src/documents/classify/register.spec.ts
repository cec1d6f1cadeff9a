import { describe, expect, it } from '@jest/globals';
import {
  ADDRESSED_SENTENCE,
  describeRegister,
  registerProfile,
  SECOND_PERSON_SHARE,
} from './register.js';

/** `count` sentences made by `sentence(i)`, one text. */
const text = (count: number, sentence: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => sentence(i)).join(' ');

describe('how a text addresses its reader', () => {
  it('reads the second person in several languages', () => {
    const cases: [string, Parameters<typeof registerProfile>[1]][] = [
      [text(6, (i) => `Open menu ${i} and choose the item you need for your task.`), 'en'],
      [text(6, (i) => `Öffnen Sie das Menü ${i} und wählen Sie den passenden Eintrag.`), 'de'],
      [text(6, (i) => `Ouvrez le menu ${i} puis choisissez votre option préférée.`), 'fr'],
      [text(6, (i) => `Abre el menú ${i} y elige tu opción preferida ahora.`), 'es'],
      [text(6, (i) => `メニュー${i}を開いて、項目を選んでください。`), 'en'],
    ];
    for (const [written, language] of cases) {
      const profile = registerProfile([written], language);
      expect(profile.sentences).toBe(6);
      expect(profile.second).toBe(1);
      expect(describeRegister(profile)).toEqual([ADDRESSED_SENTENCE]);
    }
  });

  it('says nothing of an impersonal text, and reads the capitalized German "Sie" only inside a sentence', () => {
    const statute = text(8, (i) => `Der Antrag ${i} ist bei der Behörde schriftlich einzureichen.`);
    expect(registerProfile([statute], 'de').second).toBe(0);
    expect(describeRegister(registerProfile([statute], 'de'))).toEqual([]);
    const she = text(8, (i) => `Sie hat den Antrag ${i} gestern bei der Behörde eingereicht.`);
    expect(registerProfile([she], 'de').second).toBe(0);
  });

  it('reads the first persons and questions apart from the second', () => {
    const letter = registerProfile(
      [
        text(4, (i) => `I am writing about position ${i} in my field.`) +
          ' We met last year at the fair. Would you call me back?',
      ],
      'en',
    );
    expect(letter.sentences).toBe(6);
    expect(letter.firstSingular).toBeCloseTo(5 / 6);
    expect(letter.firstPlural).toBeCloseTo(1 / 6);
    expect(letter.second).toBeCloseTo(1 / 6);
    expect(letter.questions).toBeCloseTo(1 / 6);
  });

  it('says the sentence only past its share and for a text of enough sentences', () => {
    const addressed = (share: number, sentences = 100) => ({
      sentences,
      firstSingular: 0,
      firstPlural: 0,
      second: share,
      questions: 0,
    });
    expect(describeRegister(addressed(SECOND_PERSON_SHARE))).toEqual([ADDRESSED_SENTENCE]);
    expect(describeRegister(addressed(SECOND_PERSON_SHARE / 2))).toEqual([]);
    expect(describeRegister(addressed(1, 4))).toEqual([]);
    expect(registerProfile(['Use it. Read on.\nMenu items'], 'en').sentences).toBe(0);
  });
});
