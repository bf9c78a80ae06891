/**
 * A DKIM key pair for the tests, and mailauth's verification of a received message against its public key as
 * DNS would publish it (a resolver that knows the one TXT record <selector>._domainkey.<domain>).
 */
import { generateKeyPairSync } from "node:crypto";
import { dkimVerify } from "mailauth";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
export const DKIM_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
/** The key as a platform's one-line setting keeps it: line breaks written \n. */
export const DKIM_PEM_ONE_LINE = DKIM_PEM.trim().replace(/\n/g, "\\n");
/** The key as its TXT record carries it: the DER of the public key, in base64. */
const P = publicKey.export({ type: "spki", format: "der" }).toString("base64");

/** A DNS that knows one record: the public key at <selector>._domainkey.<domain>. */
function dns(selector: string, domain: string) {
  return async (name: string, type: string) => {
    if (type === "TXT" && name === `${selector}._domainkey.${domain}`) return [[`v=DKIM1; k=rsa; p=${P}`]];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
}

/** Each DKIM signature of a message: its result, signing domain and selector. */
export async function verifyDkim(raw: Buffer, selector: string, domain: string) {
  const { results } = await dkimVerify(raw, { resolver: dns(selector, domain) });
  return results.map((r) => ({ result: r.status.result, domain: r.signingDomain, selector: r.selector }));
}
