// The analytics feature's public surface: nothing yet; its page is reached through the router alone.
export {};
