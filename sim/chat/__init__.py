"""The chat bridge: a loop as chat-API requests, a policy that asks a chat model, the course's model served."""
