/** Who a request acts for, set on the request by the auth guards. */
export interface AccountPrincipal {
  kind: 'account';
  keyId: string;
  userId: string;
  /** The org the key was created for, if any. */
  defaultOrgId: string | null;
}

export interface ProcessingPrincipal {
  kind: 'processing';
  keyId: string;
  orgId: string;
}

export type Principal = AccountPrincipal | ProcessingPrincipal;
