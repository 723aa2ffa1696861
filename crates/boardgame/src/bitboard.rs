//! What every bitboard of the games answers the same way.

/// The set queries of a bitboard type, written inside its `impl` block: a
/// tuple struct over an unsigned integer, one bit per square (or point),
/// whose square `$sq` has its bit number at `$bit`. Gives the `const fn`s
/// `is_empty`, `any`, `contains` and `contains_all`.
#[macro_export]
macro_rules! bitboard_queries {
    ($square:ty, $sq:ident => $bit:expr) => {
        /// Whether the set is empty.
        #[inline]
        pub const fn is_empty(self) -> bool {
            self.0 == 0
        }

        /// Whether the set has any square.
        #[inline]
        pub const fn any(self) -> bool {
            self.0 != 0
        }

        /// Whether `sq` is in the set.
        #[inline]
        pub const fn contains(self, $sq: $square) -> bool {
            self.0 & (1 << $bit) != 0
        }

        /// Whether every square of `other` is in the set.
        #[inline]
        pub const fn contains_all(self, other: Self) -> bool {
            self.0 & other.0 == other.0
        }
    };
}

/// The set operators of a bitboard type `$bb` (a tuple struct over an
/// unsigned integer): `&`, `|`, `^` with their assigning forms, and `-`,
/// the squares of the left side that are not in the right one.
#[macro_export]
macro_rules! bitboard_ops {
    ($bb:ty) => {
        $crate::bitboard_ops!(@op $bb, BitAnd bitand BitAndAssign bitand_assign &);
        $crate::bitboard_ops!(@op $bb, BitOr bitor BitOrAssign bitor_assign |);
        $crate::bitboard_ops!(@op $bb, BitXor bitxor BitXorAssign bitxor_assign ^);

        impl ::std::ops::Sub for $bb {
            type Output = $bb;
            /// The squares of `self` that are not in `rhs`.
            #[inline]
            fn sub(self, rhs: $bb) -> $bb {
                Self(self.0 & !rhs.0)
            }
        }
    };
    (@op $bb:ty, $tr:ident $f:ident $tra:ident $fa:ident $op:tt) => {
        impl ::std::ops::$tr for $bb {
            type Output = $bb;
            #[inline]
            fn $f(self, rhs: $bb) -> $bb {
                Self(self.0 $op rhs.0)
            }
        }

        impl ::std::ops::$tra for $bb {
            #[inline]
            fn $fa(&mut self, rhs: $bb) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

#[cfg(test)]
mod tests {
    /// A set of eight squares.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Bits(u8);

    impl Bits {
        crate::bitboard_queries!(u8, sq => sq);
    }

    crate::bitboard_ops!(Bits);

    #[test]
    fn queries_read_the_bits() {
        assert!(Bits(0).is_empty() && !Bits(0).any());
        let s = Bits(0b1010);
        assert!(!s.is_empty() && s.any());
        assert!(s.contains(1) && s.contains(3) && !s.contains(0));
        assert!(s.contains_all(Bits(0b1000)) && s.contains_all(Bits(0)));
        assert!(!s.contains_all(Bits(0b1100)));
    }

    #[test]
    fn operators_combine_the_bits() {
        let (a, b) = (Bits(0b1100), Bits(0b1010));
        assert_eq!(
            (a & b, a | b, a ^ b, a - b),
            (Bits(0b1000), Bits(0b1110), Bits(0b0110), Bits(0b0100))
        );
        let mut c = a;
        c |= b;
        c &= Bits(0b0111);
        c ^= Bits(0b0001);
        assert_eq!(c, Bits(0b0111));
    }
}
