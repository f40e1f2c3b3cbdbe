//! Asking the person: terminal prompt, non-interactive answers, presentation.
