//gocccl:arch compute_86 sm_86 sm_75

package accept_arch_files
