import GLMapCore
