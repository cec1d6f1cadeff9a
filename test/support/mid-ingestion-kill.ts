import { AssignerProtocol } from 'kafkajs';
import type { ChildApp } from './child-app.js';
import { produce, produceInSlices, testKafkaBrokers, type TestMessage } from './kafka.js';
import { groupOffsets, withAdmin } from './usage-kafka.js';

/*
 * Killing an ingest process mid-ingestion by construction, not by luck: the process is
 * frozen (SIGSTOP) first, and only while frozen is it checked to still own events it has
 * not committed. Frozen, it can neither write nor commit, and its partitions stay its own
 * (no other member fetches them until a rebalance, which its absence starts only after the
 * session timeout), so what the check saw is the state the SIGKILL that follows hits.
 */

/** A stable group's partitions of `topic` per member client id; otherwise why not. */
export type GroupAssignment =
  { stable: true; byClient: Map<string, number[]> } | { stable: false; state: string };

/**
 * Partitions of `topic` per client id of the members of `group`, when the group is stable
 * and no two members share a client id (a killed member lingers until its session ends).
 */
export async function groupAssignment(
  topic: string,
  group: string,
  brokers = testKafkaBrokers(),
): Promise<GroupAssignment> {
  return withAdmin(brokers, async (admin) => {
    const { groups } = await admin.describeGroups([group]);
    const description = groups[0];
    if (!description || description.state !== 'Stable') {
      return { stable: false, state: description?.state ?? 'absent' };
    }
    const byClient = new Map<string, number[]>();
    for (const member of description.members) {
      if (byClient.has(member.clientId)) {
        return { stable: false, state: `Stable, two members named ${member.clientId}` };
      }
      const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
      byClient.set(member.clientId, decoded?.assignment[topic] ?? []);
    }
    return { stable: true, byClient };
  });
}

/** What a freeze found. */
export interface FreezeOutcome {
  /** True: the process is frozen mid-ingestion, for a SIGKILL; false: it was thawed again. */
  frozen: boolean;
  /** Events of the process's partitions not committed yet (end offset minus committed). */
  uncommitted: number;
  /** The group's state and offsets as the freeze saw them (for a failure message). */
  seen: string;
}

/**
 * Freezes `child` and counts the events of the partitions its member (`clientId`) of
 * `group` owns that are not committed yet. Above zero: the process stays frozen
 * mid-ingestion, ready for a SIGKILL. Zero (it had drained them, or the group was not
 * stable, so whose partitions are whose is unknown): it is thawed again.
 */
export async function freezeWhileBehind(
  child: ChildApp,
  topic: string,
  group: string,
  clientId: string,
): Promise<FreezeOutcome> {
  child.signal('SIGSTOP');
  let outcome: FreezeOutcome;
  try {
    const [offsets, assignment] = await Promise.all([
      groupOffsets(topic, group),
      groupAssignment(topic, group),
    ]);
    const owned = new Set(assignment.stable ? (assignment.byClient.get(clientId) ?? []) : []);
    const uncommitted = offsets
      .filter((p) => owned.has(p.partition))
      .reduce((sum, p) => sum + (p.high - Math.max(p.committed, 0)), 0);
    const members = assignment.stable
      ? [...assignment.byClient].map(([id, partitions]) => `${id}: [${partitions.join(', ')}]`)
      : [assignment.state];
    const ends = offsets.map((p) => `${p.partition}: ${p.committed}/${p.high}`);
    const seen = `group ${members.join('; ')}; committed/end ${ends.join(', ')}`;
    outcome = { frozen: uncommitted > 0, uncommitted, seen };
  } catch (error) {
    child.signal('SIGCONT');
    throw error;
  }
  if (!outcome.frozen) child.signal('SIGCONT');
  return outcome;
}

/** The freeze that held (or the last one tried) and how many messages were sent before it. */
export interface SlicedFreeze extends FreezeOutcome {
  sent: number;
  /** What the freezes that found nothing uncommitted saw, in order. */
  missed: string[];
}

/**
 * Produces `messages` in slices of `sliceSize` while `child` ingests them, and freezes the
 * child right after the broker acknowledged slice `firstFreezeAfter` (1-based): within the
 * same turn of the event loop, before the child can have fetched, written and committed
 * that slice. Frozen, it is checked to own events it has not committed (`freezeWhileBehind`);
 * if it does not, it is thawed and tried again after the next slice. The messages after the
 * freeze are not sent: the caller sends `messages.slice(sent)` after the kill.
 */
export async function produceUntilFrozenBehind(
  child: ChildApp,
  target: { topic: string; group: string; clientId: string },
  messages: TestMessage[],
  slicing: { sliceSize: number; firstFreezeAfter: number },
): Promise<SlicedFreeze> {
  const { topic, group, clientId } = target;
  const missed: string[] = [];
  let last: FreezeOutcome = { frozen: false, uncommitted: 0, seen: 'no freeze tried' };
  const sent = await produceInSlices(topic, messages, slicing.sliceSize, async (sentSoFar) => {
    if (sentSoFar < slicing.sliceSize * slicing.firstFreezeAfter) return false;
    last = await freezeWhileBehind(child, topic, group, clientId);
    if (!last.frozen) missed.push(last.seen);
    return last.frozen;
  });
  return { ...last, sent, missed };
}

/** One round's events after its head, how they are sent, and the list of those sent. */
export interface RoundTail<E> {
  events: E[];
  messagesOf: (events: E[]) => TestMessage[];
  /** Every event the broker acknowledged, in order: the sent part of `events` is added. */
  published: E[];
}

/**
 * One kill mid-ingestion: sends the tail in slices until `child` is frozen owning events it
 * has not committed (`produceUntilFrozenBehind`), kills it with SIGKILL, sends the rest of
 * the tail and starts it again. Throws when no freeze found it behind.
 */
export async function killMidIngestion<E>(
  child: ChildApp,
  target: { topic: string; group: string; clientId: string },
  tail: RoundTail<E>,
  slicing: { sliceSize: number; firstFreezeAfter: number },
): Promise<SlicedFreeze> {
  const freeze = await produceUntilFrozenBehind(
    child,
    target,
    tail.messagesOf(tail.events),
    slicing,
  );
  tail.published.push(...tail.events.slice(0, freeze.sent));
  if (!freeze.frozen) {
    throw new Error(`${target.clientId} was never behind:\n${freeze.missed.join('\n')}`);
  }
  const stopped = await child.stop('SIGKILL');
  if (stopped !== 'SIGKILL')
    throw new Error(`${target.clientId} ended with ${stopped}, not SIGKILL`);
  const rest = tail.events.slice(freeze.sent);
  await produce(target.topic, tail.messagesOf(rest));
  tail.published.push(...rest);
  await child.start();
  return freeze;
}
