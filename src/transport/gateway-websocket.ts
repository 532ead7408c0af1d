import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { TokenBucket } from '../policy/token-bucket.js';

/**
 * The close code of a connection whose client sends messages faster than it may: 1008, Policy
 * Violation (RFC 6455). graphql-ws's client takes any 1xxx code but the transient ones as fatal, so
 * it does not reconnect to send the same flood again.
 */
export const TOO_MANY_MESSAGES_CLOSE_CODE = 1008;

/**
 * The messages a connection may send at once before its rate applies: one second of messages plus
 * twice the operations it may hold, so that a page may open them all, close them and open them
 * again without waiting (transport/websocket.ts has the default rate).
 */
export function messageBurst(messagesPerSecond: number, maxOperations: number): number {
  return messagesPerSecond + 2 * maxOperations;
}

type SendArguments = Parameters<WebSocket['send']>;
type SendCallback = NonNullable<SendArguments[2]>;

/**
 * The server's side of a graphql-ws connection (websocket-server.ts has ws make these). It changes
 * how messages leave, not what they say; graphql-ws sends each message on its own:
 *
 * - One write per connection per turn of the event loop. A status change reaches every
 *   subscription of a connection at once (the bench's fan-out: 100 on each connection), and each
 *   message was a write system call of its own; they now leave together when the turn ends.
 * - A failed write closes the connection and is not reported back. A write fails only when the
 *   peer is gone (EPIPE, ECONNRESET, a socket already destroyed); graphql-ws rejected each failure
 *   into its message handler, which printed "Internal error occurred during message handling" and a
 *   stack to stderr once per subscription on the connection. A client could flood the log that way
 *   by resetting its socket as a change fanned out to many subscriptions, and writes to stderr are
 *   synchronous on Linux. The close ends the connection's operations as any other close does.
 * - A connection that holds more than its limit of bytes not yet taken by the operating system
 *   (its client reads too slowly, or not at all) is closed at its next message: every message
 *   pushed to such a client would otherwise stay in the gateway's memory.
 * - A client that sends messages faster than its rate (`limitsMessages`) is closed with
 *   TOO_MANY_MESSAGES_CLOSE_CODE, and what it still sends is dropped unread. A proxy in front cannot
 *   rate-limit the messages inside one socket; 20,000 `subscribe` messages in 1.4 MB held the event
 *   loop for 10-23 s (issue 27).
 */
export class GatewayWebSocket extends WebSocket {
  private transport: Duplex | undefined;
  private maxUnsentBytes = Number.POSITIVE_INFINITY;
  private flushScheduled = false;
  private messageRate: TokenBucket | undefined;
  private flooded = false;

  /** The upgraded socket this WebSocket writes to, which ws does not expose, and the most it may hold unsent. */
  writesTo(transport: Duplex, maxUnsentBytes: number): void {
    this.transport = transport;
    this.maxUnsentBytes = maxUnsentBytes;
  }

  /** The rate at which the client may send messages; past it the connection is closed. */
  limitsMessages(rate: TokenBucket): void {
    this.messageRate = rate;
  }

  /**
   * ws hands every message to its 'message' listeners through here, graphql-ws's among them (which
   * cannot be told to skip one): a message past the rate never reaches them. The check is before
   * graphql-ws parses the message, so a dropped one costs only ws's framing.
   */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && this.messageRate && (this.flooded || !this.messageRate.take())) {
      if (!this.flooded) {
        this.flooded = true;
        this.close(TOO_MANY_MESSAGES_CLOSE_CODE, 'Too many messages: the client sends faster than this gateway allows.');
      }
      return false;
    }
    return super.emit(event, ...args);
  }

  override send(data: SendArguments[0], optionsOrCallback?: SendArguments[1] | SendCallback, callback?: SendCallback): void {
    const options = typeof optionsOrCallback === 'function' ? {} : (optionsOrCallback ?? {});
    const done = typeof optionsOrCallback === 'function' ? optionsOrCallback : callback;
    if (this.bufferedAmount > this.maxUnsentBytes) {
      // Not a close handshake: its frame would wait behind what the client is not reading.
      this.terminate();
      done?.();
      return;
    }
    this.holdWritesUntilTurnEnds();
    super.send(data, options, (error?: Error) => {
      if (error) this.terminate();
      done?.();
    });
  }

  private holdWritesUntilTurnEnds(): void {
    const transport = this.transport;
    if (this.flushScheduled || !transport || transport.destroyed) return;
    this.flushScheduled = true;
    transport.cork();
    // After the promise jobs of this turn: graphql-ws sends from them, one per subscription.
    process.nextTick(() => {
      this.flushScheduled = false;
      transport.uncork();
    });
  }
}
