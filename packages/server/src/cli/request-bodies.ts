// The request bodies the client commands send, by their names in the API's OpenAPI document (@hookline/client's
// generated types): a field the API renames or retypes fails the typecheck here, not a request at run time.
import type { components } from '@hookline/client';

type Schemas = components['schemas'];
export type CreateEndpointBody = Schemas['CreateEndpointRequest'];
export type UpdateEndpointBody = Schemas['UpdateEndpointRequest'];
export type CreateTenantBody = Schemas['CreateTenantRequest'];
export type UpdateTenantBody = Schemas['UpdateTenantRequest'];
export type TenantLimitsBody = NonNullable<UpdateTenantBody['limits']>;
export type CreateApiKeyBody = Schemas['CreateApiKeyRequest'];
export type ReplayWindowBody = NonNullable<Schemas['ReplayWindowRequest']>;
export type SendEventBody = Schemas['EventInput'];
