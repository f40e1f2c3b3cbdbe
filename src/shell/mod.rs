//! Shell analysis (pure): shell text in, the simple commands and writes it contains out.
