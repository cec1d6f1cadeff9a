/** The invoice requests the processing specs share: one category, one field, one section. */
export const invoiceClassificationSchema = [{ category: 'invoice', criteria: ['invoice number'] }];

export const invoiceExtractSchema = {
  type: 'object',
  properties: { invoice_number: { type: 'string', description: 'The invoice number' } },
};

export const invoiceSplitDescription = [
  { name: 'Invoice', description: 'An invoice with an invoice number' },
];
