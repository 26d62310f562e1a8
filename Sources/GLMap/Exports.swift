// The types a user of `import GLMap` needs from the stage modules, re-exported so that one import
// renders a PNG (the rest of the stage modules stay internal to the package's own targets).
@_exported import struct GLMapCore.RGBAImage
@_exported import typealias GLMapCore.PremultipliedImage
@_exported import typealias GLMapCore.StraightImage
@_exported import protocol GLMapCore.AlphaConvention
@_exported import enum GLMapCore.PremultipliedAlpha
@_exported import enum GLMapCore.StraightAlpha
@_exported import enum GLMapCore.JSONValue
@_exported import struct GLMapCore.JSONObject
@_exported import protocol GLMapCore.GLMapError
@_exported import enum GLMapCore.FailureKind
@_exported import struct GLMapCore.InputFailure
@_exported import struct GLMapCore.IOFailure
@_exported import struct GLMapCore.InputLimits
@_exported import struct GLMapCore.Camera
@_exported import struct GLMapCore.EdgeInsets
@_exported import struct GLMapStyle.StyleError
@_exported import struct GLMapStyle.StyleIssue
@_exported import enum GLMapStyle.LayerType
@_exported import enum GLMapGLES.RasterizerThreads
@_exported import class GLMapStyle.StyleProperty
@_exported import class GLMapStyle.PropertyKey
@_exported import struct GLMapStyle.StyleDocument
@_exported import struct GLMapStyle.VariableAnchorOffsetCollection
@_exported import struct GLMapTiles.ResourceLoaderOptions
@_exported import struct GLMapTiles.URLRewriteRule
