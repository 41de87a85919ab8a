import { describe, expect, it } from 'vitest';
import {
  approverMessage,
  createOfferMessage,
  receiptMessage,
} from '../../../../src/features/approvals/blocks/request-messages.js';
import { ActionId } from '../../../../src/slack/ids.js';
import type { ApprovalRequest } from '../../../../src/store/approval-requests.js';

const T0 = Date.UTC(2025, 0, 6, 10, 0);

const request = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'req-1',
  teamId: 'T1',
  requesterId: 'U_SAM',
  paperspaceTeamId: 'te1',
  kind: 'create',
  machineId: null,
  machineName: 'gpu <big>',
  ownerId: null,
  details: { params: { machineName: 'gpu <big>', machineType: 'P4000' }, hourlyRate: '0.51' },
  channel: 'C1',
  createdAt: T0,
  expiresAt: T0 + 86_400_000,
  status: 'open',
  decidedBy: null,
  decidedAt: null,
  reason: null,
  messages: [],
  ...overrides,
});

const actionIds = (message: { blocks: unknown[] }) =>
  JSON.stringify(message.blocks).match(/"action_id":"[a-z_]+"/g) ?? [];

describe('request messages', () => {
  it('show approvers the specification, the hourly rate, and Approve / Deny while open', () => {
    const message = approverMessage(request());
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('P4000');
    expect(text).toContain('$0.51 / h');
    expect(text).toContain('gpu &lt;big&gt;');
    expect(actionIds(message)).toEqual([
      `"action_id":"${ActionId.requestApprove}"`,
      `"action_id":"${ActionId.requestDeny}"`,
    ]);
  });

  it('offer the owner of a machine to approve for some hours', () => {
    const message = approverMessage(
      request({ kind: 'start', machineId: 'ps1', ownerId: 'U_MAYA', details: {} }),
    );
    expect(actionIds(message)).toContain(`"action_id":"${ActionId.requestApproveFor}"`);
  });

  it('replace the buttons with the decision and its reason once decided', () => {
    const denied = request({ status: 'denied', decidedBy: 'U_MAYA', reason: 'too <pricey>' });
    for (const message of [approverMessage(denied), receiptMessage(denied, '<@U_MAYA>')]) {
      expect(actionIds(message)).toEqual([]);
      expect(JSON.stringify(message.blocks)).toContain('Denied by <@U_MAYA>: too &lt;pricey&gt;');
    }
  });

  it('never put a password typed for a new user in front of anyone', () => {
    const offer = createOfferMessage({ machineName: 'x', email: 'a@b.c', password: 'hunter2-secret' });
    expect(JSON.stringify(offer.blocks)).not.toContain('hunter2-secret');
  });
});
