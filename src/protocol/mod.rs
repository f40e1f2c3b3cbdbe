//! Wire messages of the native protocol (SPEC section 2).
