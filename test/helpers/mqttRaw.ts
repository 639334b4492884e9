/**
 * Hand-built MQTT 3.1.1 packets over a plain socket, for what mqtt.js will
 * not send: topics whose bytes are not valid UTF-8 (mqtt.js encodes a JS
 * string, so it can only ever produce well-formed UTF-8).
 */
import { connect, type Socket } from 'node:net';
import { withDeadline } from './mqttHarness.js';

/** MQTT "remaining length" variable-byte integer. */
export function remainingLength(length: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

/** A two-byte length, then the bytes (MQTT's UTF-8 string and binary data encoding). */
export function lengthPrefixed(bytes: Buffer): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(bytes.length);
  return Buffer.concat([prefix, bytes]);
}

export function packet(firstByte: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([firstByte]), remainingLength(body.length), body]);
}

/** MQTT 3.1.1 CONNECT, clean session, keep-alive 60 s, anonymous. */
export function connectPacket(clientId: string): Buffer {
  const header = Buffer.concat([lengthPrefixed(Buffer.from('MQTT')), Buffer.from([4, 0x02, 0, 60])]);
  return packet(0x10, Buffer.concat([header, lengthPrefixed(Buffer.from(clientId))]));
}

/** QoS 1 PUBLISH with packet id 1; `retain` sets the retain flag. */
export function publishPacket(topic: Buffer, payload: string, retain: boolean): Buffer {
  return packet(0x32 | (retain ? 1 : 0), Buffer.concat([lengthPrefixed(topic), Buffer.from([0, 1]), Buffer.from(payload)]));
}

/** SUBSCRIBE (packet id 2) to one filter at QoS 0. */
export function subscribePacket(filter: Buffer): Buffer {
  return packet(0x82, Buffer.concat([Buffer.from([0, 2]), lengthPrefixed(filter), Buffer.from([0])]));
}

/**
 * Connects anonymously, sends `request` and resolves 'answered' when the broker replies with a
 * packet of type `answerType` (PUBACK 4, SUBACK 9), 'closed' when it closes the connection instead.
 */
export async function rawExchange(port: number, clientId: string, request: Buffer, answerType: number): Promise<'answered' | 'closed'> {
  const socket: Socket = connect(port, '127.0.0.1');
  try {
    return await withDeadline(
      new Promise<'answered' | 'closed'>((resolve, reject) => {
        let received = Buffer.alloc(0);
        let connected = false;
        socket.on('error', () => undefined);
        socket.on('close', () => resolve('closed'));
        socket.on('connect', () => socket.write(connectPacket(clientId)));
        socket.on('data', (chunk: Buffer) => {
          received = Buffer.concat([received, chunk]);
          if (!connected && received.length >= 4) {
            if (received[0] !== 0x20 || received[3] !== 0)
              return reject(new Error(`CONNECT refused: ${received.subarray(0, 4).toString('hex')}`));
            connected = true;
            received = received.subarray(4);
            socket.write(request);
          }
          if (connected && received.length > 0 && received[0]! >> 4 === answerType) resolve('answered');
        });
      }),
      5000,
      'the broker to answer a raw packet',
    );
  } finally {
    socket.destroy();
  }
}

/**
 * A subscriber that stops reading: connects anonymously, subscribes to `filter`, waits for the
 * SUBACK and pauses the socket (the kernel's buffers fill, then the broker's). Destroy it after the test.
 */
export async function pausedSubscriber(port: number, clientId: string, filter: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  try {
    await withDeadline(
      new Promise<void>((resolve, reject) => {
        let received = Buffer.alloc(0);
        socket.once('connect', () => socket.write(Buffer.concat([connectPacket(clientId), subscribePacket(Buffer.from(filter))])));
        socket.once('close', () => reject(new Error(`the broker closed ${clientId} before its SUBACK`)));
        const onData = (chunk: Buffer): void => {
          received = Buffer.concat([received, chunk]);
          // CONNACK (4 bytes), then SUBACK (type 9).
          if (received.length >= 5 && received[4]! >> 4 === 9) {
            socket.off('data', onData);
            socket.pause();
            resolve();
          }
        };
        socket.on('data', onData);
      }),
      5000,
      `${clientId} subscribed`,
    );
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return socket;
}
