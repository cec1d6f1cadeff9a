import { describe, expect, it } from '@jest/globals';
import { classify } from './classify.js';
import { signalTerms } from './signals.js';

const deepLemmas = (page: string) => signalTerms(page, 0, true).map((term) => term.lemma);

const academicCv = [
  'Jane Roe',
  'jane.roe@example.org · +44 20 7946 0958',
  'Education',
  '2014 – 2018 PhD in Physics, University of Utrecht',
  '2010 – 2014 BSc Physics, University of Leeds',
  'Experience',
  '2018 – present Research Fellow, Institute of Optics',
  'Publications',
  '[1] Roe, J. et al. Cold atoms in lattices. Phys. Rev. A 98 (2018). doi:10.1103/PhysRevA.98.1',
  '[2] Roe, J. and Doe, K. Optical traps. Nature 5 (2019). doi:10.1038/s41586-019-1',
  'Skills: Python, C++, laser alignment',
].join('\n');

const paper = [
  'Cold atoms in optical lattices',
  'Jane Roe, jane.roe@example.org',
  'Abstract',
  'We study cold atoms in lattices between 2014 – 2018 and report the results.',
  '1. Introduction',
  '2010 – 2014 saw the first traps;',
  '2014 – 2018 brought lattices;',
  '2018 – 2020 added cavities.',
  'Cold atoms were observed from 2010 – 2014 and again from 2018 – 2020 in several traps.',
  'References',
  '[1] Roe, J. et al. Cold atoms. Phys. Rev. A 98 (2018). doi:10.1103/PhysRevA.98.1',
].join('\n');

describe('CV layout signal', () => {
  it('reads a contact block on top and dated entries as a resume with jobs and schooling', () => {
    expect(deepLemmas(academicCv)).toEqual(
      expect.arrayContaining(['resume', 'job', 'schooling', 'education']),
    );
  });

  it('is a Deep Classify signal only', () => {
    expect(signalTerms(academicCv, 0).map((term) => term.lemma)).not.toContain('schooling');
  });

  it('does not read a paper with an abstract and an introduction as a CV', () => {
    expect(deepLemmas(paper)).not.toContain('schooling');
  });

  it('lets Deep Classify read an academic CV with publications as a resume', () => {
    const schema = [
      { category: 'resume', criteria: ['a CV or resume of a person', 'jobs held and schooling'] },
      {
        category: 'research_paper',
        criteria: ['a scientific or academic article', 'list of references'],
      },
    ];
    const pick = (pages: string[]) =>
      classify({ pages, classificationSchema: schema, model: 'accurate' }).result.category;
    expect(pick([academicCv])).toBe('resume');
    expect(pick([paper])).toBe('research_paper');
  });
});
