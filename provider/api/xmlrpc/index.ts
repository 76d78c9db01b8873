/**
 * The XML-RPC codec of the client and the emulator: read.ts reads responses (plain values) and calls
 * (typed values), write.ts writes calls, responses and faults, xml.ts is the XML level below both.
 */
export * from "./read";
export * from "./write";
export { decodeUtf8, forbiddenXmlChar, isXmlSafe, XmlRpcDecodeError } from "./xml";
