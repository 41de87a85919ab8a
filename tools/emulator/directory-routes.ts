// Read-only directories: templates, users and networks, each limited to what the caller's account
// may see and filtered by the contract's equality filters.
import { requireUser } from './auth.js';
import { filterFromQuery, viewFields } from './filters.js';
import { networkView, templateView, userView } from './machine-view.js';
import { json, type Reply, type RequestContext, type Route } from './router.js';

const TEMPLATE_FILTERS = viewFields<ReturnType<typeof templateView>>({
  id: 'string',
  name: 'string',
  label: 'string',
  os: 'string',
  dtCreated: 'string',
  teamId: 'string',
  userId: 'string',
  region: 'string',
});

const USER_FILTERS = viewFields<ReturnType<typeof userView>>({
  id: 'string',
  email: 'string',
  firstname: 'string',
  lastname: 'string',
  dtCreated: 'string',
  teamId: 'string',
});

const NETWORK_FILTERS = viewFields<ReturnType<typeof networkView>>({
  id: 'string',
  name: 'string',
  region: 'string',
  dtCreated: 'string',
  network: 'string',
  netmask: 'string',
  teamId: 'string',
});

/** Stock templates (no account) and the account's own. */
function listTemplates({ core, caller, query }: RequestContext): Reply {
  const user = requireUser(caller);
  const matches = filterFromQuery(query, TEMPLATE_FILTERS);
  const views = [...core.world.templates.values()]
    .filter((template) => template.accountId === null || template.accountId === user.accountId)
    .map((template) => templateView(template, core.world));
  return json(views.filter(matches));
}

/** The members of the caller's team; on an individual account, the caller alone. */
function listUsers({ core, caller, query }: RequestContext): Reply {
  const user = requireUser(caller);
  const matches = filterFromQuery(query, USER_FILTERS);
  const views = core.world.users.ofAccount(user.accountId).map(userView);
  return json(views.filter(matches));
}

function listNetworks({ core, caller, query }: RequestContext): Reply {
  const user = requireUser(caller);
  const matches = filterFromQuery(query, NETWORK_FILTERS);
  const views = [...core.world.networks.values()]
    .filter((network) => network.accountId === user.accountId)
    .map(networkView);
  return json(views.filter(matches));
}

export const directoryRoutes: readonly Route[] = [
  { method: 'GET', path: '/templates/getTemplates', access: 'user', handle: listTemplates },
  { method: 'GET', path: '/users/getUsers', access: 'user', handle: listUsers },
  { method: 'GET', path: '/networks/getNetworks', access: 'user', handle: listNetworks },
];
