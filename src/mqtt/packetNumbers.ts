/**
 * mqtt-packet (the MQTT encoder of both aedes and mqtt.js, one shared copy)
 * by default fills a cache of 65,536 two-byte Buffers (every 16-bit number)
 * on its first write: about 6 MB of V8 heap for the life of the process,
 * a twentieth of a Pi's budget for the whole daemon. Without it each packet
 * allocates its 2-byte length/message-id fields on the fly, which costs
 * nothing measurable at a station's pace. mqtt-packet's README: "Should be
 * set before any writeToStream calls" (a cache once built is kept), so the
 * broker and the client call this before they listen or connect.
 */
import mqttPacket from 'mqtt-packet';

export function skipPacketNumberCache(): void {
  mqttPacket.writeToStream.cacheNumbers = false;
}
