//! Dame (draughts) rules: 8×8 and 10×10.
