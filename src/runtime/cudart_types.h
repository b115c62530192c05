/* CUDA 13 runtime (and a few driver) ABI types the shims need, declared here
 * so that they build without CUDA installed. Layouts follow CUDA 13.0's
 * driver_types.h, texture_types.h and cuda.h field for field;
 * tests/func/test_shim.c compares the offsets with the real headers when
 * they exist. */
#ifndef WARPSIM_RUNTIME_CUDART_TYPES_H
#define WARPSIM_RUNTIME_CUDART_TYPES_H

#include <stddef.h>

typedef struct ws_cuda_device_prop {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
} ws_cuda_device_prop;

typedef struct ws_cuda_func_attributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
} ws_cuda_func_attributes;

/* Textures (CUDA 13: texture objects only). Enumerations are ints, as in
 * the C ABI; their values are in cudart.c. */
typedef struct ws_cuda_channel_desc {
    int x, y, z, w;              /* bits per channel */
    int f;                       /* cudaChannelFormatKind */
} ws_cuda_channel_desc;

typedef struct ws_cuda_resource_desc {
    int resType;                 /* cudaResourceType */
    union {
        struct { void *array; } array;
        struct { void *mipmap; } mipmap;
        struct {
            void *devPtr;
            ws_cuda_channel_desc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            ws_cuda_channel_desc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
} ws_cuda_resource_desc;

typedef struct ws_cuda_texture_desc {
    int addressMode[3];          /* cudaTextureAddressMode */
    int filterMode;              /* cudaTextureFilterMode */
    int readMode;                /* cudaTextureReadMode */
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
} ws_cuda_texture_desc;

typedef struct ws_cuda_extent { size_t width, height, depth; } ws_cuda_extent;

/* The driver API's texture objects (cuda.h: CUDA_RESOURCE_DESC,
 * CUDA_TEXTURE_DESC), for libcuda.so.1 and tools/hwcheck. */
typedef struct ws_cu_resource_desc {
    int resType;                 /* CUresourcetype: same values as cudaResourceType */
    union {
        struct { void *hArray; } array;
        struct { void *hMipmappedArray; } mipmap;
        struct {
            unsigned long long devPtr;
            int format;          /* CUarray_format */
            unsigned int numChannels;
            size_t sizeInBytes;
        } linear;
        struct {
            unsigned long long devPtr;
            int format;
            unsigned int numChannels;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
} ws_cu_resource_desc;

typedef struct ws_cu_texture_desc {
    int addressMode[3];          /* CUaddress_mode: same values as cudaTextureAddressMode */
    int filterMode;
    unsigned int flags;          /* WS_CU_TRSF_* */
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} ws_cu_texture_desc;

enum { /* CU_TRSF_* */
    WS_CU_TRSF_READ_AS_INTEGER = 0x01, WS_CU_TRSF_NORMALIZED_COORDINATES = 0x02,
    WS_CU_TRSF_SRGB = 0x10
};
enum { /* CUarray_format */
    WS_CU_AD_FORMAT_UNSIGNED_INT8 = 0x01, WS_CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
    WS_CU_AD_FORMAT_UNSIGNED_INT32 = 0x03, WS_CU_AD_FORMAT_SIGNED_INT8 = 0x08,
    WS_CU_AD_FORMAT_SIGNED_INT16 = 0x09, WS_CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
    WS_CU_AD_FORMAT_HALF = 0x10, WS_CU_AD_FORMAT_FLOAT = 0x20
};

#endif
