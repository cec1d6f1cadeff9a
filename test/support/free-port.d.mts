// The types of free-port.mjs (see there).
import type { ChildProcess } from 'node:child_process';

/** `count` distinct ports free at the time of the call, all held until all are picked. */
export function freePorts(count: number): Promise<number[]>;

/** What a server or a service script says when a port it was given is already bound. */
export const PORT_TAKEN: RegExp;

/** A server process started on a given port. */
export interface Launched {
  child: ChildProcess;
  /** What the process wrote so far (stdout and/or stderr): read for PORT_TAKEN. */
  output(): string;
}

/**
 * Starts a server with `launch(port)` on a free port and waits until that process (or one of
 * its descendants) listens on it; a start that exits saying the port was taken is made again
 * on another port.
 */
export function startOnFreePort<T extends Launched>(
  what: string,
  launch: (port: number) => T,
  timeoutMs: number,
): Promise<{ launched: T; port: number }>;

/** Starts a service on `count` free ports, again on new ones while `start` throws PortTaken. */
export function onFreePorts<T>(
  count: number,
  start: (ports: number[]) => Promise<T>,
  attempts?: number,
): Promise<T>;

/**
 * Starts a service again on the ports it had: while `start` throws PortTaken, tries again
 * every `everyMs` (500) until `timeoutMs` has passed.
 */
export function againOnSamePorts<T>(
  start: () => Promise<T>,
  timeoutMs: number,
  everyMs?: number,
): Promise<T>;

/** A start that failed because one of its ports was bound by another process first. */
export class PortTaken extends Error {}

/** True when process `pid` or one of its descendants has a TCP socket listening on `port`. */
export function listensOn(pid: number, port: number): boolean;
