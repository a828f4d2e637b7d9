//! baoqi-audio: see SPEC §2. (shell, filled by later issues)
