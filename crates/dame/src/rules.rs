//! Rule options and named presets (RULES.md Part 2, "Rule options").

use boardgame::rules_text;

use crate::BoardSize;

/// Where a king lands after jumping a piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KingLanding {
    /// On the square directly behind the captured piece (004: "Beim Schlagen
    /// muss sie jedoch direkt hinter dem geschlagenen Stein aufsetzen").
    DirectlyBehind,
    /// On any empty square behind the captured piece (FMJD international
    /// rules). If some of those squares let the capture go on, the king must
    /// land on one of them.
    AnywhereBehind,
}

/// How far from the piece it captures a king may start its jump.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KingCapture {
    /// From any distance: the king slides over empty squares up to the
    /// piece, then jumps it (the German and French texts of 004: the king
    /// moves "beliebig weit" and only its landing is restricted; FMJD).
    /// Every jump of a multiple capture may again start from a distance.
    Long,
    /// Only a piece on the square next to the king: the king must stand
    /// directly behind the piece it captures (the Italian text of 004:
    /// "Per eliminare, la dama deve trovarsi direttamente dietro alla
    /// pedina che vuole «mangiare»"). Every jump of a multiple capture
    /// must start next to its piece too; a king that would need to fly up
    /// to the next piece stops. Where it lands is still
    /// [`RuleSet::king_landing`].
    Short,
}

/// When a man that reaches the promotion row is crowned.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Promotion {
    /// A man reaching the opponent's back row is crowned at once; during a
    /// capture it stops there, even if it could go on capturing backward
    /// (004).
    Immediate,
    /// A man is crowned only if its move ends on the back row; a man that
    /// passes the back row in a multiple capture stays a man (FMJD).
    EndOfMove,
}

/// Every option of the Dame rules. `RuleSet::default()` is the `dame` preset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RuleSet {
    /// 8×8 or 10×10.
    pub board: BoardSize,
    /// Whether men may capture backward as well as forward (French text of
    /// 004, international). Men always *move* forward only.
    pub men_capture_backward: bool,
    /// Whether the capture that takes the most pieces is compulsory (kings
    /// and men count alike; international).
    pub majority_capture: bool,
    /// Where a king lands behind a captured piece.
    pub king_landing: KingLanding,
    /// Whether a king captures from a distance or only a piece next to it.
    /// Default [`KingCapture::Long`] in every preset.
    pub king_capture: KingCapture,
    /// When a man is crowned.
    pub promotion: Promotion,
    /// Huffing ("Blasen", "souffler"): a move that does not capture although
    /// a capture was possible is allowed, and the opponent may then remove a
    /// piece that could have captured (see [`crate::Game::huff`]).
    pub huffing: bool,
    /// Draw after this many plies in a row in which only kings moved and
    /// nothing was captured (`None`: never). Default 50.
    pub king_move_draw: Option<u16>,
    /// Draw when a position occurs for this many times (`None`: never).
    /// Default 3.
    pub repetition_draw: Option<u8>,
    /// Draw as soon as each side has exactly one king and nothing else
    /// (004's example of a draw). Default on; off in `international`,
    /// where one king against one king falls under
    /// [`RuleSet::king_vs_two_draw`] instead.
    pub one_king_each_draw: bool,
    /// FMJD's 16-move rule: draw after this many plies counted from the
    /// moment the material became a lone king against three pieces, at
    /// least one of them a king ([`Ending::KingVsThree`]) (`None`: never).
    /// Default off; `international` 32 (16 moves each).
    pub king_vs_three_draw: Option<u16>,
    /// FMJD's 5-move rule: draw after this many plies counted from the
    /// moment the material became a lone king against one or two pieces,
    /// at least one of them a king ([`Ending::KingVsTwo`]) (`None`: never).
    /// Default off; `international` 10 (5 moves each).
    pub king_vs_two_draw: Option<u16>,
}

/// The endings with a move limit of their own (FMJD rules, article on the
/// draw): one side has a single king and nothing else, the other side a few
/// pieces with at least one king among them. See [`RuleSet::king_vs_three_draw`]
/// and [`RuleSet::king_vs_two_draw`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// A lone king against three kings, two kings and a man, or a king and
    /// two men (the 16-move rule).
    KingVsThree,
    /// A lone king against two kings, a king and a man, or one king (the
    /// 5-move rule).
    KingVsTwo,
}

/// The named presets, as accepted by [`RuleSet::preset`].
pub const PRESETS: [&str; 4] = ["dame", "dame-100", "dame-fr", "international"];

/// Error for a rule-set string that cannot be understood.
pub type ParseRulesError = boardgame::rules_text::ParseRulesError<RuleSet>;

/// The options with their values, as errors list them.
const OPTIONS: &str = "board=8|10, men-capture-backward=on|off, majority=on|off, king-landing=behind|anywhere, king-capture=long|short, promotion=immediate|end-of-move, huffing=on|off, king-moves=N|off, repetition=N|off, one-king-each=on|off, king-vs-three=N|off, king-vs-two=N|off";

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::DAME
    }
}

impl RuleSet {
    /// `dame`: the German text of the Ravensburger leaflet (004) on 8×8.
    pub const DAME: RuleSet = RuleSet {
        board: BoardSize::Eight,
        men_capture_backward: false,
        majority_capture: false,
        king_landing: KingLanding::DirectlyBehind,
        king_capture: KingCapture::Long,
        promotion: Promotion::Immediate,
        huffing: false,
        king_move_draw: Some(50),
        repetition_draw: Some(3),
        one_king_each_draw: true,
        king_vs_three_draw: None,
        king_vs_two_draw: None,
    };
    /// `dame-100`: the same rules on 10×10 (004, "Dame 100").
    pub const DAME_100: RuleSet = RuleSet {
        board: BoardSize::Ten,
        ..RuleSet::DAME
    };
    /// `dame-fr`: the French text of 004 on 8×8: men capture backward too.
    pub const DAME_FR: RuleSet = RuleSet {
        men_capture_backward: true,
        ..RuleSet::DAME
    };
    /// `international`: FMJD rules on 10×10: men capture backward, the
    /// capture taking the most pieces is compulsory, kings land anywhere
    /// behind the captured piece, a man is crowned only at the end of a move;
    /// and FMJD's draws: threefold repetition, 25 moves each (50 plies) of
    /// only king moves without capture, the 16-move rule (a lone king
    /// against three pieces) and the 5-move rule (a lone king against one or
    /// two pieces), but no immediate draw for one king each.
    pub const INTERNATIONAL: RuleSet = RuleSet {
        board: BoardSize::Ten,
        men_capture_backward: true,
        majority_capture: true,
        king_landing: KingLanding::AnywhereBehind,
        promotion: Promotion::EndOfMove,
        king_move_draw: Some(50),
        repetition_draw: Some(3),
        one_king_each_draw: false,
        king_vs_three_draw: Some(32),
        king_vs_two_draw: Some(10),
        ..RuleSet::DAME
    };

    /// The preset with the given name (any case; `dame100`, `dame-10x10`,
    /// `fr`, `fmjd` are accepted too).
    pub fn preset(name: &str) -> Option<RuleSet> {
        match name.trim().to_ascii_lowercase().as_str() {
            "dame" | "dame-8x8" => Some(RuleSet::DAME),
            "dame-100" | "dame100" | "dame-10x10" => Some(RuleSet::DAME_100),
            "dame-fr" | "fr" | "dames" => Some(RuleSet::DAME_FR),
            "international" | "fmjd" => Some(RuleSet::INTERNATIONAL),
            _ => None,
        }
    }

    /// The preset's name if this rule set is exactly one of the presets.
    pub fn preset_name(&self) -> Option<&'static str> {
        boardgame::rules_text::preset_name(self)
    }

    /// The move limit, in plies, of an ending under these rules (`None`:
    /// the ending has none).
    pub const fn ending_limit(&self, ending: Ending) -> Option<u16> {
        match ending {
            Ending::KingVsThree => self.king_vs_three_draw,
            Ending::KingVsTwo => self.king_vs_two_draw,
        }
    }

    /// Whether some ending has a move limit under these rules.
    #[inline]
    pub const fn counts_endings(&self) -> bool {
        self.king_vs_three_draw.is_some() || self.king_vs_two_draw.is_some()
    }

    /// Set one option from its textual form (`board=10`,
    /// `men-capture-backward=on`, `majority=on`, `king-landing=anywhere`,
    /// `king-capture=short`, `promotion=end-of-move`, `huffing=on`, `king-moves=50`,
    /// `repetition=off`, `one-king-each=off`, `king-vs-three=32`,
    /// `king-vs-two=10`).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseRulesError> {
        let bad = |expected| ParseRulesError::BadValue {
            option: key.trim().to_string(),
            value: value.trim().to_string(),
            expected,
        };
        let v = value.trim().to_ascii_lowercase();
        let on_off = |v: &str| rules_text::on_off(v).ok_or_else(|| bad("on or off"));
        let plies = |v: &str| {
            rules_text::number_or_off(v, 1)
                .ok_or_else(|| bad("a number of plies from 1 to 65535, or off"))
        };
        match key.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "board" | "size" => {
                self.board = BoardSize::from_name(&v).ok_or_else(|| bad("8 or 10"))?;
            }
            "men-capture-backward" | "backward" | "capture-backward" => {
                self.men_capture_backward = on_off(&v)?;
            }
            "majority" | "majority-capture" => {
                self.majority_capture = on_off(&v)?;
            }
            "king-landing" | "landing" => {
                self.king_landing = match v.as_str() {
                    "behind" | "directly-behind" | "short" => KingLanding::DirectlyBehind,
                    "anywhere" | "anywhere-behind" | "long" => KingLanding::AnywhereBehind,
                    _ => return Err(bad("behind or anywhere")),
                }
            }
            "king-capture" | "king-approach" => {
                self.king_capture = match v.as_str() {
                    "long" | "flying" | "distance" | "far" => KingCapture::Long,
                    "short" | "adjacent" | "near" => KingCapture::Short,
                    _ => return Err(bad("long or short")),
                }
            }
            "promotion" => {
                self.promotion = match v.as_str() {
                    "immediate" | "stop" => Promotion::Immediate,
                    "end-of-move" | "end" => Promotion::EndOfMove,
                    _ => return Err(bad("immediate or end-of-move")),
                }
            }
            "huffing" | "blasen" | "souffler" => {
                self.huffing = on_off(&v)?;
            }
            "king-moves" | "king-move-draw" => self.king_move_draw = plies(&v)?,
            "repetition" => {
                self.repetition_draw = rules_text::number_or_off(&v, 2)
                    .ok_or_else(|| bad("a count from 2 to 255, or off"))?;
            }
            "one-king-each" | "one-king-each-draw" => {
                self.one_king_each_draw = on_off(&v)?;
            }
            "king-vs-three" | "king-vs-three-draw" => self.king_vs_three_draw = plies(&v)?,
            "king-vs-two" | "king-vs-two-draw" => self.king_vs_two_draw = plies(&v)?,
            _ => return Err(ParseRulesError::UnknownOption(key.trim().to_string())),
        }
        Ok(())
    }

    fn differences(&self, other: &RuleSet) -> Vec<(&'static str, String)> {
        let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
        let mut out = Vec::new();
        if self.board != other.board {
            out.push(("board", other.board.side().to_string()));
        }
        if self.men_capture_backward != other.men_capture_backward {
            out.push(("men-capture-backward", on_off(other.men_capture_backward)));
        }
        if self.majority_capture != other.majority_capture {
            out.push(("majority", on_off(other.majority_capture)));
        }
        if self.king_landing != other.king_landing {
            let v = match other.king_landing {
                KingLanding::DirectlyBehind => "behind",
                KingLanding::AnywhereBehind => "anywhere",
            };
            out.push(("king-landing", v.to_string()));
        }
        if self.king_capture != other.king_capture {
            let v = match other.king_capture {
                KingCapture::Long => "long",
                KingCapture::Short => "short",
            };
            out.push(("king-capture", v.to_string()));
        }
        if self.promotion != other.promotion {
            let v = match other.promotion {
                Promotion::Immediate => "immediate",
                Promotion::EndOfMove => "end-of-move",
            };
            out.push(("promotion", v.to_string()));
        }
        if self.huffing != other.huffing {
            out.push(("huffing", on_off(other.huffing)));
        }
        if self.king_move_draw != other.king_move_draw {
            let v = other
                .king_move_draw
                .map_or("off".to_string(), |n| n.to_string());
            out.push(("king-moves", v));
        }
        if self.repetition_draw != other.repetition_draw {
            let v = other
                .repetition_draw
                .map_or("off".to_string(), |n| n.to_string());
            out.push(("repetition", v));
        }
        if self.one_king_each_draw != other.one_king_each_draw {
            out.push(("one-king-each", on_off(other.one_king_each_draw)));
        }
        let plies = |n: Option<u16>| n.map_or("off".to_string(), |n| n.to_string());
        if self.king_vs_three_draw != other.king_vs_three_draw {
            out.push(("king-vs-three", plies(other.king_vs_three_draw)));
        }
        if self.king_vs_two_draw != other.king_vs_two_draw {
            out.push(("king-vs-two", plies(other.king_vs_two_draw)));
        }
        out
    }
}

// `dame`, `international`, or a preset followed by the options that differ:
// `dame,huffing=on`, `dame-100,majority=on`. Read: a preset, optionally
// followed by `,key=value` options; or options alone (applied to `dame`).
// The empty string is `dame`.
boardgame::rule_text!(RuleSet, RuleSet::DAME, PRESETS, OPTIONS);
