// The enum-valued style properties glmap draws, with the style spec's values.

/// Whether a layer is drawn (`visibility`).
public enum Visibility: String, StyleEnum { case visible, none }

/// The end of a line (`line-cap`).
public enum LineCap: String, StyleEnum { case butt, round, square }

/// The corner where two line segments meet (`line-join`).
public enum LineJoin: String, StyleEnum { case bevel, round, miter }

/// The frame `fill-translate` is in (`fill-translate-anchor`).
public enum FillTranslateAnchor: String, StyleEnum { case map, viewport }

/// The frame `line-translate` is in (`line-translate-anchor`).
public enum LineTranslateAnchor: String, StyleEnum { case map, viewport }

/// The frame `circle-translate` is in (`circle-translate-anchor`).
public enum CircleTranslateAnchor: String, StyleEnum { case map, viewport }

/// Whether circles scale with the map's pitch (`circle-pitch-scale`).
public enum CirclePitchScale: String, StyleEnum { case map, viewport }

/// The plane circles lie in when the map is pitched (`circle-pitch-alignment`).
public enum CirclePitchAlignment: String, StyleEnum { case map, viewport }
