//! Repetition (循環局面, 第10章): detection, 長將/長捉 classification, warnings and rulings.
//! (Filled by the repetition work of issue 4.)
