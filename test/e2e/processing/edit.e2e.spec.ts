import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import {
  PDFCheckBox,
  PDFDocument,
  PDFDropdown,
  type PDFForm,
  PDFName,
  PDFRadioGroup,
  PDFTextField,
} from 'pdf-lib';
import Reducto, { toFile } from 'reductoai';
import { fetch as sdkFetch } from 'reductoai/_shims/index';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import {
  makeContentControlDocx,
  makeFlatForm,
  makePlaceholderDocx,
  realForm,
} from '../../support/edit-forms.js';
import { OpenApiConformance } from '../../support/openapi-conformance.js';
import { until } from '../../support/operations.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

type Report = {
  filled: { field: string; value: string; instruction: string | null; confidence: number }[];
  unmatched_instructions: string[];
  unfilled_fields: { field: string }[];
};

/**
 * Edit through the unchanged reductoai SDK: real AcroForms (a LibreOffice form and an
 * OpenOffice form with every field kind, from pypdf's PyPI source distribution; VA Form
 * 21-0966 of the United States government, from pikepdf's; IRS Form 1040NR, a tax form, from
 * pdfminer's) are filled and read back with
 * pdf-lib, and an encrypted one (DD Form 293) is refused naming why; a generated flat PDF is
 * written into its form_schema boxes; a generated DOCX has its placeholders replaced.
 */
describe('edit (fill forms) through the reductoai SDK', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let sdk: Reducto;
  let org: SeededAccount;
  let conformance: OpenApiConformance;
  /** Credits of every completed edit, which the usage export must show under `edit`. */
  let billed = 0;

  beforeAll(async () => {
    t = await startTestApp({ OUTBOX_RELAY_INTERVAL_MS: '50' });
    org = await seedAccount(t.app, 'Edit Co');
    conformance = new OpenApiConformance(await (await fetch(`${t.baseUrl}/openapi.json`)).json());
    sdk = new Reducto({
      apiKey: org.processingKey,
      baseURL: t.baseUrl,
      maxRetries: 0,
      fetch: conformance.wrap(sdkFetch),
    });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    expect(conformance.violations.splice(0)).toEqual([]);
  });

  async function upload(bytes: Buffer, name: string): Promise<string> {
    const extension = name.split('.').pop() ?? 'pdf';
    return (await sdk.upload({ file: await toFile(bytes, name), extension })).file_id;
  }

  async function download(url: string): Promise<Buffer> {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  /** The form of an edited PDF, downloaded and read back with pdf-lib. */
  async function filledForm(url: string): Promise<PDFForm> {
    return (await PDFDocument.load(await download(url))).getForm();
  }

  function reportOf(response: unknown): Report {
    return (response as { report: Report }).report;
  }

  /** `client.edit.run`, counting the credits billed. */
  async function run(body: Reducto.EditRunParams) {
    const response = await sdk.edit.run(body);
    expect((response as unknown as { response_type: unknown }).response_type).toBe('edit');
    billed += response.usage?.credits ?? 0;
    return response;
  }

  it('fills the LibreOffice form: names, a date, a radio option by its printed caption, a dropdown, a tick', async () => {
    const document_url = await upload(realForm('libreoffice-form'), 'form.pdf');
    const response = await run({
      document_url,
      edit_instructions:
        "first name: Ada, last name: Lovelace, birthday: 10 December 1815, gender: female, nationality: French, tick 'agree to privacy policy', favourite colour: blue",
    });
    expect(response.usage).toMatchObject({ num_pages: 1, credits: 2 });
    const report = reportOf(response);
    expect(report.unmatched_instructions).toEqual(['favourite colour: blue']);
    expect(report.unfilled_fields.map((f) => f.field).sort()).toEqual(['First Name_2', 'other']);
    for (const entry of report.filled) expect(entry.confidence).toBeGreaterThanOrEqual(0.5);
    const form = await filledForm(response.document_url);
    expect(form.getTextField('First Name').getText()).toBe('Ada');
    expect(form.getTextField('Last Name').getText()).toBe('Lovelace');
    expect(form.getTextField('Birthday').getText()).toBe('10 December 1815');
    // The group's options are exported as "1" and "2"; "Female" is printed by the first.
    expect(form.getRadioGroup('female').getSelected()).toBe('1');
    expect(form.getDropdown('Nationality').getSelected()).toEqual(['French']);
    expect(form.getCheckBox('gdpr').isChecked()).toBe(true);
    expect(form.getCheckBox('other').isChecked()).toBe(false);
    // A value the form came with stays when no instruction names its field.
    expect(form.getTextField('First Name_2').getText()).toBe('Bob');
  });

  it('matches instructions in other languages to the English form', async () => {
    const document_url = await upload(realForm('libreoffice-form'), 'form.pdf');
    const response = await run({
      document_url,
      edit_instructions:
        'Vorname: Ada\nNachname: Lovelace\nGeschlecht: männlich\nNationalité: Italian',
    });
    const form = await filledForm(response.document_url);
    expect(form.getTextField('First Name').getText()).toBe('Ada');
    expect(form.getTextField('Last Name').getText()).toBe('Lovelace');
    expect(form.getRadioGroup('female').getSelected()).toBe('2');
    expect(form.getDropdown('Nationality').getSelected()).toEqual(['Italian']);
  });

  it('types radio groups, dropdowns and checkboxes, and flattens on request (async, polled)', async () => {
    const bytes = realForm('openoffice-form-test');
    const document_url = await upload(bytes, 'oo-form.pdf');
    const edit_instructions =
      'text1: hello; text2: two lines; tick checkbox 1; radio: Rdo2; combo: combo Line 2; droplist: DropList3; dlist: DList4';
    const filled = await run({ document_url, edit_instructions });
    const form = await filledForm(filled.document_url);
    expect(form.getTextField('Text1').getText()).toBe('hello');
    expect(form.getTextField('Text2').getText()).toBe('two lines');
    expect(form.getCheckBox('CheckBox1').isChecked()).toBe(true);
    // Options differing only by their number: the one written is the one chosen.
    expect(form.getRadioGroup('RadioGroup1').getSelected()).toBe('2');
    expect(form.getDropdown('Combo1').getSelected()).toEqual(['combo Line 2']);
    expect(form.getDropdown('DropList1').getSelected()).toEqual(['DropList3']);
    expect(form.getDropdown('DropList2').getSelected()).toEqual(['DList4']);

    const { job_id } = await sdk.edit.runJob({
      document_url,
      edit_instructions,
      edit_options: { flatten: true },
    });
    let job = await sdk.job.get(job_id);
    await until(async () => (job = await sdk.job.get(job_id)).status !== 'Pending', job_id, 60_000);
    expect(job).toMatchObject({ status: 'Completed', type: 'Edit' });
    const result = job.result as unknown as { document_url: string; usage: { credits: number } };
    billed += result.usage.credits;
    const flat = await PDFDocument.load(await download(result.document_url));
    const kinds = [PDFTextField, PDFCheckBox, PDFDropdown, PDFRadioGroup];
    expect(
      flat
        .getForm()
        .getFields()
        .filter((f) => kinds.some((k) => f instanceof k)),
    ).toEqual([]);
  });

  it('fills a government form (VA Form 21-0966): comb boxes, split dates, sections asking alike', async () => {
    const document_url = await upload(realForm('va-21-0966'), 'va-21-0966.pdf');
    const response = await run({
      document_url,
      edit_instructions: [
        "Veteran's first name: John",
        'middle initial: Q',
        'last name: Public',
        'social security number: 123-45-6789',
        'date of birth: 14 July 1950',
        'mailing address: 1200 Main Street',
        'city: Springfield',
        'state: IL',
        'country: US',
        'ZIP code: 62704',
        'telephone: 217-555-0142',
        'e-mail: jq@example.com',
        'tick compensation',
      ].join('; '),
    });
    expect(response.usage).toMatchObject({ num_pages: 2, credits: 4 });
    const report = reportOf(response);
    expect(report.unmatched_instructions).toEqual([]);
    const form = await filledForm(response.document_url);
    const text = (name: string) => form.getTextField(`F[0].Page_1[0].${name}[0]`).getText();
    expect({
      first: text('Veterans_First_Name'),
      middle: text('Veterans_Middle_Initial1'),
      last: text('Veterans_Last_Name'),
      ssn: [
        text('Veterans_Social_SecurityNumber_FirstThreeNumbers'),
        text('Veterans_Social_SecurityNumber_SecondTwoNumbers'),
        text('VeteransSocialSecurityNumber_LastFourNumbers'),
      ],
      born: [text('DOB_Month'), text('DOB_Day'), text('DOB_Year')],
      street: text('Mailing_Address_NumberAndStreet'),
      city: text('MailingAddress_City'),
      state: text('MailingAddress_StateOrProvince'),
      country: text('MailingAddress_Country'),
      zip: text('MailingAddress_ZIPOrPostalCode_FirstFiveNumbers'),
      phone: [
        text('Telephone_Number_FirstThreeNumbers'),
        text('Telephone_Number_SecondThreeNumbers'),
        text('Telephone_Number_LastFourNumbers'),
      ],
    }).toEqual({
      first: 'John',
      middle: 'Q',
      last: 'Public',
      ssn: ['123', '45', '6789'],
      born: ['07', '14', '1950'],
      street: '1200 Main Street',
      city: 'Springfield',
      state: 'IL',
      country: 'US',
      zip: '62704',
      phone: ['217', '555', '0142'],
    });
    const email = ['EMAIL_ADDRESS[0]', 'EMAIL_ADDRESS[1]'].map((n) =>
      form.getTextField(`F[0].Page_1[0].${n}`).getText(),
    );
    expect(email).toContain('jq@example.com');
    expect(form.getCheckBox('F[0].#subform[1].COMPENSATION[0]').isChecked()).toBe(true);
    expect(form.getCheckBox('F[0].#subform[1].PENSION[0]').isChecked()).toBe(false);
    // The claimant's section asks the same questions; the veteran's, first on the page, took them.
    expect(form.getTextField('F[0].Page_1[0].ClaimantsFirstName[0]').getText()).toBeUndefined();
    expect(text('Mailing_Address_ApartmentOrUnitNumber')).toBeUndefined();
  });

  it('fills the government form from German instructions', async () => {
    const document_url = await upload(realForm('va-21-0966'), 'va-21-0966.pdf');
    const response = await run({
      document_url,
      edit_instructions:
        'Nachname: Public\nGeburtsdatum: 14.07.1950\nSozialversicherungsnummer: 123-45-6789\nStadt: Springfield\nPostleitzahl: 62704\nTelefonnummer: 217-555-0142',
    });
    expect(reportOf(response).unmatched_instructions).toEqual([]);
    const form = await filledForm(response.document_url);
    const text = (name: string) => form.getTextField(`F[0].Page_1[0].${name}[0]`).getText();
    expect(text('Veterans_Last_Name')).toBe('Public');
    expect([text('DOB_Month'), text('DOB_Day'), text('DOB_Year')]).toEqual(['07', '14', '1950']);
    expect(text('VeteransSocialSecurityNumber_LastFourNumbers')).toBe('6789');
    expect(text('MailingAddress_City')).toBe('Springfield');
    // The street line's caption mentions the ZIP code too; the box of five characters takes it.
    expect(text('MailingAddress_ZIPOrPostalCode_FirstFiveNumbers')).toBe('62704');
    expect(text('Mailing_Address_NumberAndStreet')).toBeUndefined();
    expect(text('Telephone_Number_LastFourNumbers')).toBe('0142');
  });

  /** An IRS Form 1040NR's filing status (one checkbox, one on-value per box) as the file says. */
  function filingStatus(form: PDFForm): { value: string | undefined; on: string[] } {
    const field = form.getCheckBox('c1_05(0)').acroField;
    return {
      value: field.dict.get(PDFName.of('V'))?.toString(),
      on: field
        .getWidgets()
        .filter((w) => w.getAppearanceState() !== PDFName.of('Off'))
        .map((w) => String(w.getAppearanceState())),
    };
  }

  it('fills an IRS tax form (Form 1040NR) whose fields have no names: row captions, a filing status, dollars and cents', async () => {
    const document_url = await upload(realForm('irs-1040nr-2007'), 'f1040nr.pdf');
    // Every field is named by position (f1_004, c1_05) without a tooltip: each is found by
    // the caption printed above it or at the start of its row, across the page.
    const response = await run({
      document_url,
      edit_instructions: [
        'first name: Ada M.',
        'last name: Lovelace',
        'identifying number: 123-45-6789',
        'home address: 12 Main Street Apt 4',
        'city: Springfield IL 62704',
        'country: United Kingdom',
        'citizen or national of: United Kingdom',
        'tick individual',
        'tick other single nonresident alien',
        'wages: 52,300.00',
        'taxable interest: 120.50',
        'tax-exempt interest: 80',
      ].join('; '),
    });
    expect(response.usage).toMatchObject({ num_pages: 5 });
    expect(reportOf(response).unmatched_instructions).toEqual([]);
    const form = await filledForm(response.document_url);
    const text = (name: string) => form.getTextField(`${name}(0)`).getText();
    expect({
      first: text('f1_004'),
      last: text('f1_005'),
      identifying: text('f1_006'),
      address: text('f1_007'),
      city: text('f1_008'),
      country: text('f1_009'),
      citizen: text('f1_010'),
      wages: [text('f1_039'), text('f1_040')],
      taxableInterest: [text('f1_041'), text('f1_042')],
      taxExemptInterest: text('f1_043'),
    }).toEqual({
      first: 'Ada M.',
      last: 'Lovelace',
      identifying: '123-45-6789',
      address: '12 Main Street Apt 4',
      city: 'Springfield IL 62704',
      country: 'United Kingdom',
      citizen: 'United Kingdom',
      wages: ['52,300', '00'],
      taxableInterest: ['120', '50'],
      taxExemptInterest: '80',
    });
    expect(form.getCheckBox('c1_01(0)').isChecked()).toBe(true);
    expect(form.getCheckBox('c1_02(0)').isChecked()).toBe(false);
    // Line 2 of the filing status: its own box on, the other five off.
    expect(filingStatus(form)).toEqual({ value: '/a', on: ['/a'] });
  });

  it('fills the IRS tax form from German instructions', async () => {
    const document_url = await upload(realForm('irs-1040nr-2007'), 'f1040nr.pdf');
    const response = await run({
      document_url,
      edit_instructions:
        'Vorname: Ada; Nachname: Lovelace; Identifikationsnummer: 123-45-6789; Land: Vereinigtes Königreich; Einzelperson ankreuzen',
    });
    expect(reportOf(response).unmatched_instructions).toEqual([]);
    const form = await filledForm(response.document_url);
    const text = (name: string) => form.getTextField(`${name}(0)`).getText();
    expect([text('f1_004'), text('f1_005'), text('f1_006'), text('f1_009')]).toEqual([
      'Ada',
      'Lovelace',
      '123-45-6789',
      'Vereinigtes Königreich',
    ]);
    expect(form.getCheckBox('c1_01(0)').isChecked()).toBe(true);
    expect(form.getCheckBox('c1_02(0)').isChecked()).toBe(false);
    expect(filingStatus(form).on).toEqual([]);
  });

  it('reads a German label against a caption printed in capitals', async () => {
    const document_url = await upload(realForm('va-21-0966'), 'va-21-0966.pdf');
    // The form prints "COMPENSATION" in capitals, which the encoder reads as rare tokens.
    const response = await run({ document_url, edit_instructions: 'Entschädigung ankreuzen' });
    expect(reportOf(response).unmatched_instructions).toEqual([]);
    const form = await filledForm(response.document_url);
    expect(form.getCheckBox('F[0].#subform[1].COMPENSATION[0]').isChecked()).toBe(true);
    expect(form.getCheckBox('F[0].#subform[1].PENSION[0]').isChecked()).toBe(false);
  });

  it('refuses what it cannot edit with a 400 naming why: an encrypted government form, a flat PDF without form_schema', async () => {
    const refusal = async (bytes: Buffer, name: string) => {
      const error = await sdk.edit
        .run({ document_url: await upload(bytes, name), edit_instructions: 'name: Ada Lovelace' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Reducto.BadRequestError);
      return (error as { error: { error: { code: string; message: string } } }).error.error;
    };
    // DD Form 293 is encrypted with an owner password: readable, but not writable here.
    expect(await refusal(realForm('dd-293'), 'dd-293.pdf')).toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      message: expect.stringContaining('encrypted'),
    });
    const { bytes, boxes } = await makeFlatForm([{ label: 'Full name', type: 'text' }]);
    const flat = await refusal(bytes, 'flat.pdf');
    expect(flat).toMatchObject({
      code: 'UNSUPPORTED_DOCUMENT',
      message: expect.stringContaining('send form_schema'),
    });
    // The box the message shows is one the service takes.
    const example = JSON.parse(/each (\{.*\}) \(bbox/.exec(flat.message)![1]) as object;
    const filled = await sdk.edit.run({
      document_url: await upload(bytes, 'flat.pdf'),
      edit_instructions: 'name: Ada Lovelace',
      form_schema: [example] as never,
    });
    expect(filled.document_url).toEqual(expect.any(String));
    // A form_schema box on a page the document does not have.
    const [box] = boxes;
    const offPage = await sdk.edit
      .run({
        document_url: await upload(bytes, 'flat.pdf'),
        edit_instructions: 'full name: Ada Lovelace',
        form_schema: [
          {
            bbox: { page: 3, left: box.left, top: box.top, width: box.width, height: box.height },
            description: box.label,
            type: 'text',
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(offPage).toBeInstanceOf(Reducto.BadRequestError);
    expect((offPage as { error: { error: { message: string } } }).error.error.message).toBe(
      'form_schema[0] is on page 3; the PDF has 1 page',
    );
  });

  it('takes only an http(s) webhook url and names the body field webhook.url when refusing one', async () => {
    const { bytes } = await makeFlatForm([{ label: 'Full name', type: 'text' }]);
    const document_url = await upload(bytes, 'flat.pdf');
    const submit = async (url: string) => {
      const res = await fetch(`${t.baseUrl}/edit_async`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${org.processingKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          document_url,
          edit_instructions: 'full name: Ada Lovelace',
          webhook: { mode: 'direct', url },
        }),
      });
      return { status: res.status, body: (await res.json()) as { detail: unknown[] } };
    };
    // A document input's schemes are no place to deliver to.
    expect(await submit(document_url)).toEqual({
      status: 422,
      body: {
        detail: [expect.objectContaining({ loc: ['body', 'webhook', 'url'], type: 'url_scheme' })],
      },
    });
    expect(await submit('http://10.0.0.1/hooks')).toEqual({
      status: 422,
      body: {
        detail: [expect.objectContaining({ loc: ['body', 'webhook', 'url'], type: 'url_blocked' })],
      },
    });
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as {
      components: {
        schemas: Record<string, { properties: Record<string, { description?: string }> }>;
      };
    };
    expect(doc.components.schemas.EditWebhook.properties.url.description ?? '').not.toContain(
      'docproc://',
    );
  });

  it('refuses a direct webhook without url, and its description says so', async () => {
    const document_url = await upload(
      (await makeFlatForm([{ label: 'Name', type: 'text' }])).bytes,
      'f.pdf',
    );
    const body = (webhook: unknown) => ({ document_url, edit_instructions: 'name: Ada', webhook });
    for (const path of ['/edit', '/edit_async']) {
      const refused = await fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${org.processingKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body({ mode: 'direct', channels: [] })),
      });
      expect([refused.status, ((await refused.json()) as { detail: unknown[] }).detail]).toEqual([
        422,
        [expect.objectContaining({ loc: ['body', 'webhook', 'url'], type: 'missing' })],
      ]);
      expect(conformance.acceptsRequest('POST', path, body({ mode: 'direct' }))).toBe(false);
      for (const fine of [
        { mode: 'direct', url: 'https://hooks.example.com/x' },
        { mode: 'svix' },
        {},
      ]) {
        expect(conformance.acceptsRequest('POST', path, body(fine))).toBe(true);
      }
    }
  });

  it('reports a field with a malformed widget unfilled and fills the rest; a page without a MediaBox is written', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const form = doc.getForm();
    form.createTextField('full name').addToPage(page, { x: 50, y: 700, width: 200, height: 20 });
    const city = form.createTextField('city');
    city.addToPage(page, { x: 50, y: 650, width: 200, height: 20 });
    // A Rect of two values, where a PDF viewer and pdf-lib want four numbers.
    city.acroField.getWidgets()[0].dict.set(PDFName.of('Rect'), doc.context.obj([1, 2]));
    const document_url = await upload(Buffer.from(await doc.save()), 'broken-widget.pdf');
    const response = await run({ document_url, edit_instructions: 'full name: Ada; city: London' });
    const report = reportOf(response);
    expect(report.filled.map((f) => [f.field, f.value])).toEqual([['full name', 'Ada']]);
    expect(report.unmatched_instructions).toEqual(['city: London']);
    expect(report.unfilled_fields.map((f) => f.field)).toEqual(['city']);
    const edited = await filledForm(response.document_url);
    expect(edited.getTextField('full name').getText()).toBe('Ada');

    // A flat page without a MediaBox (none of its own, none inherited): read as US Letter.
    const { bytes, boxes } = await makeFlatForm([{ label: 'Full name', type: 'text' }]);
    const flat = await PDFDocument.load(bytes);
    flat.getPage(0).node.delete(PDFName.of('MediaBox'));
    const [box] = boxes;
    const written = await run({
      document_url: await upload(Buffer.from(await flat.save()), 'no-mediabox.pdf'),
      edit_instructions: 'full name: Ada Lovelace',
      form_schema: [
        {
          bbox: { page: 1, left: box.left, top: box.top, width: box.width, height: box.height },
          description: box.label,
          type: 'text',
        },
      ],
    });
    expect(reportOf(written).filled.map((f) => f.value)).toEqual(['Ada Lovelace']);
    expect((await pageTexts(await download(written.document_url)))[0]).toContain('Ada Lovelace');
  });

  it('writes into the form_schema boxes of a flat PDF, with overflow pages when asked', async () => {
    const { bytes, boxes } = await makeFlatForm([
      { label: 'Full name', type: 'text' },
      { label: 'Date of birth (MM/DD/YYYY)', type: 'text', width: 120 },
      { label: 'Married', type: 'checkbox' },
      { label: 'Remarks', type: 'text', width: 90 },
    ]);
    const form_schema = boxes.map((b) => ({
      bbox: { page: b.page, left: b.left, top: b.top, width: b.width, height: b.height },
      description: b.label,
      type: b.type,
    }));
    const document_url = await upload(bytes, 'flat.pdf');
    const remarks = 'Prefers to be contacted in writing at the address on file, never by phone.';
    const response = await run({
      document_url,
      form_schema,
      edit_instructions: `name: Ada Lovelace, date of birth 10 December 1815, tick 'married', remarks: ${remarks}`,
      edit_options: { enable_overflow_pages: true },
    });
    const report = reportOf(response);
    expect(Object.fromEntries(report.filled.map((f) => [f.field, f.value]))).toEqual({
      'Full name': 'Ada Lovelace',
      'Date of birth (MM/DD/YYYY)': '12/10/1815',
      Married: 'checked',
      Remarks: remarks,
    });
    expect(response.form_schema?.map((w) => w.value)).toEqual([
      'Ada Lovelace',
      '12/10/1815',
      'checked',
      remarks,
    ]);
    const edited = await download(response.document_url);
    const pages = await pageTexts(edited);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Ada Lovelace');
    expect(pages[0]).toContain('12/10/1815');
    expect(pages[1]).toContain('Remarks:');
    expect(pages[1].replace(/\s+/g, ' ')).toContain(remarks);
  });

  it('fills the placeholders of a DOCX, also where Word split them across runs', async () => {
    const docx = await makePlaceholderDocx([
      ['Employment agreement'],
      ['Employee name: ', '{{employee', '_name}}'],
      ['Start date: ', '____________'],
      ['Salary: [Annual salary]'],
      ['☐ Full time    ☐ Part time'],
    ]);
    const document_url = await upload(docx, 'contract.docx');
    const response = await run({
      document_url,
      edit_instructions:
        'employee name: Ada Lovelace; start date: 1 March 2027; annual salary: 90,000 GBP; tick part time',
    });
    const edited = await download(response.document_url);
    const { value } = await mammoth.extractRawText({ buffer: edited });
    expect(value).toContain('Employee name: Ada Lovelace');
    expect(value).toContain('Start date: 1 March 2027');
    expect(value).toContain('Salary: 90,000 GBP');
    expect(value).toContain('☐ Full time    ☒ Part time');
    expect(response.usage).toMatchObject({ num_pages: 1, credits: 2 });
  });

  it("fills a Word form's content controls: text, check box, drop-down list and date picker", async () => {
    const docx = await makeContentControlDocx([
      { caption: 'Employee name:', control: { kind: 'text', alias: 'Employee name', tag: 'name' } },
      { caption: 'Full time', control: { kind: 'checkbox', alias: 'Full time', tag: 'fulltime' } },
      {
        caption: 'Department:',
        control: {
          kind: 'dropdown',
          alias: 'Department',
          tag: 'dept',
          items: ['Engineering', 'Research', 'Sales'],
        },
      },
      {
        caption: 'Start date:',
        control: { kind: 'date', alias: 'Start date', tag: 'start', format: 'dd/MM/yyyy' },
      },
    ]);
    const document_url = await upload(docx, 'employment-form.docx');
    const response = await run({
      document_url,
      edit_instructions:
        'employee name: Ada Lovelace; tick full time; department: research; start date: 1 March 2027',
    });
    expect(reportOf(response).unmatched_instructions).toEqual([]);
    const xml = await (
      await JSZip.loadAsync(await download(response.document_url))
    )
      .file('word/document.xml')!
      .async('string');
    const control = (tag: string) => {
      const sdt = xml
        .split('<w:sdt>')
        .find((part) => part.includes(`<w:tag w:val="${tag}"/>`))!
        .split('</w:sdt>')[0];
      const content = sdt.split('<w:sdtContent>')[1];
      return {
        text: [...content.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/gu)].map((m) => m[1]).join(''),
        placeholder: sdt.includes('<w:showingPlcHdr'),
        checked: /<w14:checked w14:val="1"/u.test(sdt),
      };
    };
    expect(control('name')).toMatchObject({ text: 'Ada Lovelace', placeholder: false });
    expect(control('fulltime')).toMatchObject({ text: '☒', checked: true });
    expect(control('dept')).toMatchObject({ text: 'Research', placeholder: false });
    expect(control('start')).toMatchObject({ text: '01/03/2027', placeholder: false });
    const { value } = await mammoth.extractRawText({
      buffer: await download(response.document_url),
    });
    expect(value).toContain('Employee name: Ada Lovelace');
  });

  it('pins the edit model with alpha.edit_model and refuses an unknown version, listing them', async () => {
    const document_url = await upload(realForm('libreoffice-form'), 'form.pdf');
    const pinned = await sdk.post<unknown, Reducto.EditResponse>('/edit', {
      body: {
        document_url,
        edit_instructions: 'first name: Ada',
        alpha: { edit_model: 'edit-v1' },
      },
    });
    expect(pinned).toMatchObject({
      model_versions: { edit_model: { version: 'edit-v1', pinned: true } },
    });
    billed += pinned.usage?.credits ?? 0;
    const res = await fetch(`${t.baseUrl}/edit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.processingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        document_url,
        edit_instructions: 'x',
        alpha: { edit_model: 'edit-v0' },
      }),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('edit-v1');
    const reused = await fetch(`${t.baseUrl}/edit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.processingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document_url: 'jobid://job_1', edit_instructions: 'x' }),
    });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual([
      'body',
      'document_url',
    ]);
  });

  it('bills edit as its own product and feature, shown in the usage export', async () => {
    expect(billed).toBeGreaterThan(0);
    await waitFor(
      'the edits to reach the usage export',
      async () => {
        /** Credits under `edit` grouped by `groupBy`, over the days (a run may cross midnight). */
        const editCredits = async (groupBy: string) => {
          const res = await fetch(`${t.baseUrl}/api/v1/usage/export?groupBy=${groupBy}`, {
            headers: { authorization: `Bearer ${org.accountKey}` },
          });
          const { data } = (await res.json()) as { data: { group: string; credits: number }[] };
          return data
            .filter((row) => row.group === 'edit')
            .reduce((sum, row) => sum + row.credits, 0);
        };
        // An expectation rather than a boolean: a timeout then shows the credits last seen.
        expect({
          product: await editCredits('product'),
          feature: await editCredits('feature'),
        }).toEqual({
          product: billed,
          feature: billed,
        });
        return true;
      },
      30_000,
    );
  });
});

/** Each page's text, read back with pdf.js. */
async function pageTexts(bytes: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    out.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return out;
}
