// What a transcript message must be wherever a session takes one (built,
// appended, loaded, written to a file): a valid role and string content. A
// bad message taken silently would be sent to the provider later, far from
// the line that made it, or written where the next load fails on it.
import type { Message, Role } from "../../ports/message.ts";
import { describe } from "../_options.ts";

/** The roles a message may have. */
export const ROLES: readonly Role[] = ["system", "user", "assistant", "tool"];

/**
 * Why `value` is not a transcript message, as a phrase to follow "the
 * message" (`has role "robot"; the roles are system, user, assistant,
 * tool`), or undefined when it is one.
 */
export function messageProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return "is not a message object ({ role, content })";
  }
  const m = value as Partial<Message>;
  if (!ROLES.includes(m.role as Role)) {
    return `has role ${describe(m.role)}; the roles are ${ROLES.join(", ")}`;
  }
  if (typeof m.content !== "string") {
    return `has content ${
      describe(m.content)
    }; content must be a string ("" for a turn that only calls tools)`;
  }
  return undefined;
}

/** Throws a TypeError naming `where` and the first message of `messages` that is not one. */
export function checkMessages(where: string, messages: readonly unknown[], from = 0): void {
  for (let i = 0; i < messages.length; i++) {
    const problem = messageProblem(messages[i]);
    if (problem) throw new TypeError(`${where}: message ${from + i + 1} ${problem}`);
  }
}
